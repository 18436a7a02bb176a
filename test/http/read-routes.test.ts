/**
 * The read routes on the wire: the list (envelope, pagination, query errors, Link, filter) and
 * GET one (both id spellings, both path prefixes, ETag, If-None-Match), in the Relayer's format.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { etagOf } from '../../src/store/validation/network-file.js';
import { networkYaml, standardFiles } from '../helpers/fixtures.js';
import { openReadApp, type ReadApp } from '../helpers/read-http.js';
import { nextChange } from '../helpers/store.js';

const PREFIXES = ['/api/v1/networks', '/networks'];
const SEPOLIA_WIRE = {
  id: 'evm:sepolia',
  name: 'sepolia',
  network_type: 'evm',
  rpc_urls: [
    { url: 'https://rpc.example.com', weight: 100 },
    { url: 'https://backup.example.com', weight: 30 },
  ],
  chain_id: 11155111,
  is_testnet: true,
};

/** The standard three plus nine more evm networks: 12 in all, two default pages. */
function twelveFiles(): Record<string, string> {
  const files = standardFiles();
  for (let i = 0; i < 9; i++) files[`evm/net-${i}.yaml`] = networkYaml({ rpc_urls: [`https://net-${i}.example.com`] });
  return files;
}
const ALL_IDS = [
  ...Array.from({ length: 9 }, (_, i) => `evm:net-${i}`),
  'evm:mainnet',
  'evm:sepolia',
  'solana:devnet',
].sort();

/** `<url>; rel="x", ...` -> {x: url}. */
function parseLinks(header: string | undefined): Record<string, string> {
  const links: Record<string, string> = {};
  for (const part of (header ?? '').split(',')) {
    const m = /^\s*<([^>]*)>;\s*rel="([a-z]+)"\s*$/.exec(part);
    if (m) links[m[2] as string] = m[1] as string;
  }
  return links;
}

describe('read routes', () => {
  let fx: ReadApp;
  before(async () => {
    fx = await openReadApp(twelveFiles());
  });
  after(() => fx.close());

  describe('GET /networks (list)', () => {
    it('default page: the envelope with pagination, 10 networks in id order', async () => {
      const res = await fx.agent.get('/api/v1/networks');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/^application\/json/);
      expect(res.text.startsWith('{"success":true,"data":[')).to.equal(true);
      expect(res.body).to.include({ success: true, error: null });
      expect(res.body.pagination).to.deep.equal({ current_page: 1, per_page: 10, total_items: 12, total_pages: 2 });
      expect(res.body.data.map((n: { id: string }) => n.id)).to.deep.equal(ALL_IDS.slice(0, 10));
      const second = await fx.agent.get('/api/v1/networks?page=2');
      expect(second.body.data.map((n: { id: string }) => n.id)).to.deep.equal(['evm:sepolia', 'solana:devnet']);
      expect(second.body.data[0]).to.deep.equal(SEPOLIA_WIRE);
    });

    it('every listed network has id, name, network_type and {url, weight} entries, and equals GET one', async () => {
      const res = await fx.agent.get('/networks?per_page=100');
      expect(res.body.data).to.have.length(12);
      for (const n of res.body.data) {
        expect(Object.keys(n).slice(0, 3)).to.deep.equal(['id', 'name', 'network_type']);
        expect(`${n.network_type}:${n.name}`).to.equal(n.id);
        for (const entry of n.rpc_urls) expect(Object.keys(entry).sort()).to.deep.equal(['url', 'weight']);
        const one = await fx.agent.get(`/networks/${n.id}`);
        expect(one.body.data).to.deep.equal(n);
      }
    });

    it('per_page pages walk every network exactly once', async () => {
      const seen: string[] = [];
      for (let page = 1; page <= 3; page++) {
        const res = await fx.agent.get(`/api/v1/networks?page=${page}&per_page=5`);
        expect(res.body.pagination).to.deep.equal({ current_page: page, per_page: 5, total_items: 12, total_pages: 3 });
        seen.push(...res.body.data.map((n: { id: string }) => n.id));
      }
      expect(seen).to.deep.equal(ALL_IDS);
    });

    it('a page past the end is 200 with data []', async () => {
      const res = await fx.agent.get('/api/v1/networks?page=99&per_page=5');
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal([]);
      expect(res.body.pagination).to.deep.equal({ current_page: 99, per_page: 5, total_items: 12, total_pages: 3 });
    });

    it('per_page 1 and 100 are the bounds', async () => {
      expect((await fx.agent.get('/api/v1/networks?per_page=1')).body.data).to.have.length(1);
      expect((await fx.agent.get('/api/v1/networks?per_page=100')).body.data).to.have.length(12);
    });

    const badQueries: Array<[string, string]> = [];
    for (const name of ['page', 'per_page']) {
      for (const value of ['0', '-1', '1.5', 'abc', '', '%201', '1e1', '0x1'])
        badQueries.push([`${name}=${value}`, name]);
      badQueries.push([`${name}=1&${name}=2`, name]);
    }
    badQueries.push(['page=1000000001', 'page'], ['page=99999999999', 'page'], ['per_page=101', 'per_page']);
    badQueries.push(
      ['network_type=EVM', 'network_type'],
      ['network_type=evm:sepolia', 'network_type'],
      ['network_type=', 'network_type'],
    );
    badQueries.push(['network_type=evm&network_type=solana', 'network_type']);
    for (const [query, name] of badQueries) {
      it(`?${query} -> 400 INVALID_QUERY at /${name}`, async () => {
        const res = await fx.agent.get(`/api/v1/networks?${query}`);
        expect(res.status).to.equal(400);
        expect(res.headers['content-type']).to.match(/^application\/json/);
        expect(res.body).to.include({ success: false, data: null, code: 'INVALID_QUERY' });
        expect(res.body.details.map((d: { pointer: string }) => d.pointer)).to.deep.equal([`/${name}`]);
      });
    }

    it('names both parameters when both are wrong', async () => {
      const res = await fx.agent.get('/api/v1/networks?page=0&per_page=abc');
      expect(res.body.details.map((d: { pointer: string }) => d.pointer)).to.deep.equal(['/page', '/per_page']);
    });

    it('?network_type=evm lists that family only; an unknown family is an empty page', async () => {
      const evm = await fx.agent.get('/api/v1/networks?network_type=evm&per_page=100');
      expect(evm.body.data.map((n: { id: string }) => n.id)).to.deep.equal(
        ALL_IDS.filter((id) => id.startsWith('evm:')),
      );
      expect(evm.body.pagination.total_items).to.equal(11);
      const none = await fx.agent.get('/api/v1/networks?network_type=cosmos');
      expect(none.status).to.equal(200);
      expect(none.body.data).to.deep.equal([]);
      expect(none.body.pagination).to.include({ total_items: 0 });
    });

    const linkRows: Array<{ url: string; links: Record<string, string> }> = [
      {
        url: '/api/v1/networks?page=2&per_page=5',
        links: {
          first: '/api/v1/networks?page=1&per_page=5',
          prev: '/api/v1/networks?page=1&per_page=5',
          next: '/api/v1/networks?page=3&per_page=5',
          last: '/api/v1/networks?page=3&per_page=5',
        },
      },
      {
        url: '/api/v1/networks',
        links: {
          first: '/api/v1/networks?page=1&per_page=10',
          next: '/api/v1/networks?page=2&per_page=10',
          last: '/api/v1/networks?page=2&per_page=10',
        },
      },
      {
        url: '/networks?page=3&per_page=5',
        links: {
          first: '/networks?page=1&per_page=5',
          prev: '/networks?page=2&per_page=5',
          last: '/networks?page=3&per_page=5',
        },
      },
      {
        url: '/api/v1/networks?network_type=evm&per_page=4&page=2',
        links: {
          first: '/api/v1/networks?page=1&per_page=4&network_type=evm',
          prev: '/api/v1/networks?page=1&per_page=4&network_type=evm',
          next: '/api/v1/networks?page=3&per_page=4&network_type=evm',
          last: '/api/v1/networks?page=3&per_page=4&network_type=evm',
        },
      },
      {
        url: '/api/v1/networks?network_type=cosmos',
        links: {
          first: '/api/v1/networks?page=1&per_page=10&network_type=cosmos',
          last: '/api/v1/networks?page=1&per_page=10&network_type=cosmos',
        },
      },
    ];
    for (const row of linkRows) {
      it(`Link header (RFC 8288) of ${row.url}`, async () => {
        const res = await fx.agent.get(row.url);
        expect(parseLinks(res.headers.link)).to.deep.equal(row.links);
      });
    }
  });

  describe('GET /networks/{id}', () => {
    const sepoliaBytes = networkYaml();
    for (const prefix of PREFIXES) {
      for (const id of ['evm:sepolia', 'evm%3Asepolia', 'evm%3asepolia']) {
        it(`GET ${prefix}/${id} -> 200 with the ETag of the file's bytes`, async () => {
          const res = await fx.agent.get(`${prefix}/${id}`);
          expect(res.status).to.equal(200);
          expect(res.headers['content-type']).to.match(/^application\/json/);
          expect(res.body).to.deep.equal({ success: true, data: SEPOLIA_WIRE, error: null });
          expect(res.headers.etag).to.equal(etagOf(sepoliaBytes)).and.not.match(/^W\//);
        });
      }
      it(`GET ${prefix}/evm:nope -> 404 NETWORK_NOT_FOUND`, async () => {
        const res = await fx.agent.get(`${prefix}/evm:nope`);
        expect(res.status).to.equal(404);
        expect(res.body).to.include({ success: false, data: null, code: 'NETWORK_NOT_FOUND' });
      });
      for (const id of [
        'sepolia',
        'evm:',
        ':sepolia',
        'EVM:sepolia',
        'evm:sepolia:x',
        'evm%2Fsepolia',
        'evm:se%20polia',
        'evm%3A..%2Fx',
      ]) {
        it(`GET ${prefix}/${id} -> 400 INVALID_ID`, async () => {
          const res = await fx.agent.get(`${prefix}/${id}`);
          expect(res.status).to.equal(400);
          expect(res.body).to.include({ success: false, data: null, code: 'INVALID_ID' });
        });
      }
    }

    const conditional: Array<[string, (etag: string) => string, number]> = [
      ['the current ETag', (e) => e, 304],
      ['a list holding it', (e) => `"nope", ${e}`, 304],
      ['its weak form', (e) => `W/${e}`, 304],
      ['*', () => '*', 304],
      ['another ETag', () => '"nope"', 200],
    ];
    for (const [name, header, status] of conditional) {
      it(`If-None-Match: ${name} -> ${status}`, async () => {
        const etag = etagOf(sepoliaBytes);
        const res = await fx.agent.get('/api/v1/networks/evm:sepolia').set('If-None-Match', header(etag));
        expect(res.status).to.equal(status);
        expect(res.headers.etag).to.equal(etag);
        if (status === 304) expect(res.text ?? '').to.equal('');
      });
    }

    it('the ETag follows the bytes: a comment-only edit changes it and the old one no longer gives 304', async () => {
      const file = path.join(fx.root, 'evm/net-0.yaml');
      const before = await fx.agent.get('/api/v1/networks/evm:net-0');
      const edited = `${networkYaml({ rpc_urls: ['https://net-0.example.com'] })}# reviewed\n`;
      const changed = nextChange(fx.store, (c) => c.id === 'evm:net-0');
      writeFileSync(file, edited);
      await changed;
      const after = await fx.agent
        .get('/api/v1/networks/evm:net-0')
        .set('If-None-Match', before.headers.etag as string);
      expect(after.status).to.equal(200);
      expect(after.headers.etag).to.equal(etagOf(edited)).and.not.equal(before.headers.etag);
      expect(after.body.data).to.deep.equal(before.body.data);
    });
  });
});
