/**
 * The built server with RPC_PROBE_INTERVAL_MS (a child process, fake endpoints on loopback): a URL
 * whose status changes is logged, with its key redacted; the key never reaches the log.
 */
import { expect } from 'chai';
import { startChild, type ChildServer } from '../helpers/child-server.js';
import { startFakeRpc, type FakeRpc } from '../helpers/fake-rpc.js';
import { makeConfigDir, networkYaml, removeDir } from '../helpers/fixtures.js';

const KEY = 'Zx8fJq2LmN4pQ7rT9vW1yB3';

describe('probe: the live prober in the built server logs URLs redacted', function () {
  this.timeout(20_000);
  let root: string;
  let server: ChildServer | undefined;
  let rpc: FakeRpc;
  afterEach(async () => {
    await server?.stop();
    await rpc.close();
    removeDir(root);
  });

  it('an rpc health change is logged with scheme, host and path shape, the key and the query values as ***', async () => {
    rpc = await startFakeRpc({ eth_chainId: { result: '0x1' }, eth_blockNumber: { result: '0x10' } });
    root = makeConfigDir({ 'evm/sepolia.yaml': networkYaml({ rpc_urls: [`${rpc.url}v2/${KEY}?apikey=${KEY}x`] }) });
    server = await startChild({ CONFIG_DIR: root, RPC_PROBE_INTERVAL_MS: '1000' });
    const started = Date.now();
    while (!server.logs.some((l) => l.msg === 'rpc health change')) {
      if (Date.now() - started > 10_000) expect.fail('no rpc health change logged within 10 s');
      await new Promise((r) => setTimeout(r, 50));
    }
    const logged = server.logs.find((l) => l.msg === 'rpc health change') as { rpc_health: Record<string, unknown> };
    expect(logged.rpc_health).to.deep.equal({
      id: 'evm:sepolia',
      index: 0,
      url: `${rpc.url}v2/***?apikey=***`,
      status: 'wrong_chain',
      previous: null,
    });
    expect(JSON.stringify(server.logs)).to.not.include(KEY);
  });
});
