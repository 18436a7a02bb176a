/**
 * Comments beside RPC URLs survive a write: a table of comment placements, each written through a
 * PATCH (a Koa app over a real folder) and through the prober's own write (heal-store.ts, as
 * self-healing disables a URL), and the exact bytes expected after.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import request from 'supertest';
import { healStoreOf } from '../../../src/probe/heal-store.js';
import { writeRig, type WriteRig } from '../../helpers/write-support.js';

const REL = 'evm/sepolia.yaml';
const TAIL = 'chain_id: 11155111\nsymbol: ETH\nrequired_confirmations: 1\n';

interface Row {
  title: string;
  before: string;
  rpc_urls: unknown[];
  after: string;
}

const ROWS: Row[] = [
  {
    title: 'inline on a plain entry, one weight changed (the README example)',
    before: 'rpc_urls:\n  - https://a.example.com # shared endpoint, rate limited\n  - https://b.example.com # ours\n',
    rpc_urls: ['https://a.example.com', { url: 'https://b.example.com', weight: 0 }],
    after:
      'rpc_urls:\n  - https://a.example.com # shared endpoint, rate limited\n  - url: https://b.example.com # ours\n    weight: 0\n',
  },
  {
    title: 'before the list and between entries, an entry removed',
    before:
      'rpc_urls:\n  # primaries first\n  - https://a.example.com\n  # the backup\n  - https://b.example.com\n  # gone\n  - https://c.example.com\n',
    rpc_urls: ['https://a.example.com', 'https://b.example.com'],
    after: 'rpc_urls:\n  # primaries first\n  - https://a.example.com\n  # the backup\n  - https://b.example.com\n',
  },
  {
    title: 'inline on url: and on weight:, only the weight changed',
    before:
      'rpc_urls:\n  - url: https://a.example.com # on url\n    weight: 40 # on weight\n  - https://b.example.com # plain\n',
    rpc_urls: [{ url: 'https://a.example.com', weight: 0 }, 'https://b.example.com'],
    after:
      'rpc_urls:\n  - url: https://a.example.com # on url\n    weight: 0 # on weight\n  - https://b.example.com # plain\n',
  },
  {
    title: 'an entry added at the end, a comment after the list',
    before: 'rpc_urls:\n- https://a.example.com   # aligned\n# after the list\n',
    rpc_urls: ['https://a.example.com', { url: 'https://c.example.com', weight: 5 }],
    after:
      'rpc_urls:\n- https://a.example.com   # aligned\n- url: https://c.example.com\n  weight: 5\n# after the list\n',
  },
  {
    title: 'entries reordered, each with its comments',
    before:
      'rpc_urls:\n  # one\n  - https://a.example.com # a\n  # two\n  - url: https://b.example.com\n    weight: 50 # b\n',
    rpc_urls: [{ url: 'https://b.example.com', weight: 50 }, 'https://a.example.com'],
    after:
      'rpc_urls:\n  # one\n  # two\n  - url: https://b.example.com\n    weight: 50 # b\n  - https://a.example.com # a\n',
  },
  {
    title: 'a flow entry keeps its form, its weight replaced',
    before: 'rpc_urls:\n  - {url: https://a.example.com, weight: 7} # flow\n  - https://b.example.com\n',
    rpc_urls: [{ url: 'https://a.example.com', weight: 8 }, 'https://b.example.com'],
    after: 'rpc_urls:\n  - {url: https://a.example.com, weight: 8} # flow\n  - https://b.example.com\n',
  },
];

describe('store/edit/list-splice: comments kept', () => {
  let rig: WriteRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  for (const row of ROWS) {
    it(`through a PATCH: ${row.title}`, async () => {
      rig = await writeRig({ [REL]: row.before + TAIL });
      const res = await request(rig.app.callback())
        .patch('/api/v1/networks/evm:sepolia')
        .send({ rpc_urls: row.rpc_urls });
      expect(res.status, res.text).to.equal(200);
      expect(readFileSync(rig.file(REL), 'utf8')).to.equal(row.after + TAIL);
    });

    it(`through the prober's write: ${row.title}`, async () => {
      rig = await writeRig({ [REL]: row.before + TAIL });
      const target = healStoreOf(rig.store);
      const etag = target.network('evm:sepolia')?.etag as string;
      expect(
        await target.write('evm:sepolia', row.rpc_urls, etag, { subject: 'test', body: '', trailers: [] }),
      ).to.equal('written');
      expect(readFileSync(rig.file(REL), 'utf8')).to.equal(row.after + TAIL);
    });
  }
});
