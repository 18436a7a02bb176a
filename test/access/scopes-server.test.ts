/**
 * A token's `networks` scope on the built server: the list shows and counts only its networks, any
 * other network is a 404 with the very body of one that does not exist (no existence leak), the
 * change stream carries only its networks' events, and export holds only them.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startChild, type ChildServer } from '../helpers/child-server.js';
import { makeConfigDir, networkYaml, removeDir, standardFiles } from '../helpers/fixtures.js';
import { openSse } from '../helpers/sse.js';

const sha = (token: string): string => createHash('sha256').update(token).digest('hex');
const EVM_READER = 'ncfg_evm-reader-0123456789abcdef0123456789abc';
const EVM_WRITER = 'ncfg_evm-writer-0123456789abcdef0123456789abc';
const ALL_READER = 'ncfg_all-reader-0123456789abcdef0123456789abc';

describe('a token scope on the built server (list, one network, PATCH, change stream, export)', function () {
  this.timeout(30_000);
  let root: string;
  let dir: string;
  let server: ChildServer;
  const get = async (route: string, token: string): Promise<{ status: number; text: string }> => {
    const res = await fetch(`${server.url}${route}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, text: await res.text() };
  };

  beforeEach(async () => {
    root = makeConfigDir(standardFiles()); // evm:sepolia, evm:mainnet, solana:devnet
    dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-scopes-'));
    const file = path.join(dir, 'tokens.yaml');
    writeFileSync(
      file,
      `tokens:\n  - name: evm-reader\n    sha256: "${sha(EVM_READER)}"\n    role: read\n` +
        `    networks: ["evm:*"]\n  - name: evm-writer\n    sha256: "${sha(EVM_WRITER)}"\n    role: write\n` +
        `    networks: ["evm:sepolia"]\n  - name: all-reader\n    sha256: "${sha(ALL_READER)}"\n` +
        `    role: read\n`,
    );
    server = await startChild({ CONFIG_DIR: root, API_TOKENS_FILE: file });
  });
  afterEach(async () => {
    await server.stop();
    removeDir(root);
    rmSync(dir, { recursive: true, force: true });
  });

  it('the list shows and counts only the scope; another network is exactly the 404 of one that does not exist', async () => {
    const list = JSON.parse((await get('/api/v1/networks?per_page=1', EVM_READER)).text) as {
      data: Array<{ id: string }>;
      pagination: { total_items: number };
    };
    expect(list.pagination.total_items).to.equal(2);
    expect(list.data.map((n) => n.id)).to.deep.equal(['evm:mainnet']);
    const all = JSON.parse((await get('/api/v1/networks?per_page=1', ALL_READER)).text) as {
      pagination: { total_items: number };
    };
    expect(all.pagination.total_items, 'the page cache keeps each scope apart').to.equal(3);
    const hidden = await get('/api/v1/networks/solana:devnet', EVM_READER);
    const absent = await get('/api/v1/networks/solana:nope', EVM_READER);
    expect(hidden.status).to.equal(404);
    expect(hidden.text.replace('solana:devnet', 'X')).to.equal(absent.text.replace('solana:nope', 'X'));
    expect((await get('/api/v1/networks/solana:devnet/history', EVM_READER)).status).to.equal(404);
    const patch = await fetch(`${server.url}/api/v1/networks/evm:mainnet`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${EVM_WRITER}`, 'content-type': 'application/json' },
      body: JSON.stringify({ rpc_urls: ['https://w.example.com'] }),
    });
    expect(patch.status, 'a write token outside its scope').to.equal(404);
    // The fixture's evm networks lack what the relayer requires (symbol...): an unscoped export holds solana:devnet alone.
    const exportOf = async (token: string) =>
      (
        JSON.parse((await get('/api/v1/export/relayer', token)).text) as {
          networks: Array<{ type: string; network: string }>;
        }
      ).networks.map((n) => `${n.type}:${n.network}`);
    expect(await exportOf(ALL_READER)).to.deep.equal(['solana:devnet']);
    expect(await exportOf(EVM_READER), 'export holds only the scope').to.deep.equal([]);
  });

  it("the change stream carries only the scope's events", async () => {
    const stream = await openSse(`${server.url}/api/v1/networks/events`, { authorization: `Bearer ${EVM_READER}` });
    try {
      writeFileSync(path.join(root, 'solana/devnet.yaml'), networkYaml({ rpc_urls: ['https://sol-b.example.com'] }));
      writeFileSync(path.join(root, 'evm/mainnet.yaml'), networkYaml({ rpc_urls: ['https://eth-b.example.com'] }));
      const [event] = await stream.waitFor(1, 5000);
      expect(JSON.parse(event?.data ?? '{}')).to.include({ id: 'evm:mainnet' });
      // The solana change was written first: had it been sent, it would have come first.
      expect(stream.events.map((e) => (JSON.parse(e.data) as { id: string }).id)).to.not.include('solana:devnet');
    } finally {
      stream.close();
    }
  });
});
