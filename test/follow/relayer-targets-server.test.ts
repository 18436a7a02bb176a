/**
 * RELAYER_SYNC_FILE followed by the built server, with stand-in relayers on loopback
 * (test/helpers/stand-in-relayer.ts): a relayer added to the file is listed and shown, one changed
 * gets its new key, a broken change keeps the relayers before it and readiness (admin) names its
 * file, line and column, and a relayer removed is let go. Each wait is on the server's log lines or
 * the stand-ins' requests, with a deadline.
 */
import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { startChild, type ChildServer } from '../helpers/child-server.js';
import { makeConfigDir, networkYaml, removeDir } from '../helpers/fixtures.js';
import { startStandInRelayer, type StandInRelayer } from '../helpers/stand-in-relayer.js';

const ADMIN = 'admin-key-0123456789abcdef0123456789';
const KEYS = {
  EU_KEY: 'eu-relayer-key-0123456789',
  US_KEY: 'us-relayer-key-0123456789',
  US_KEY_2: 'us-relayer-key-rotated-01',
};

describe('follow: RELAYER_SYNC_FILE followed by the built server (stand-in relayers on loopback)', function () {
  this.timeout(60_000);
  let root: string;
  let server: ChildServer | null = null;
  let eu: StandInRelayer;
  let us: StandInRelayer;
  let file: string;

  const entry = (name: string, relayer: StandInRelayer, keyEnv: string): string =>
    `  - name: ${name}\n    url: ${relayer.url}\n    api_key_env: ${keyEnv}\n`;
  const write = (text: string): void => {
    writeFileSync(`${file}.next`, text);
    renameSync(`${file}.next`, file);
  };
  const relayers = async (): Promise<string[]> => {
    const body = (await (
      await fetch(`${server?.url}/api/v1/relayers`, { headers: { authorization: `Bearer ${ADMIN}` } })
    ).json()) as { data: Array<{ name: string }> };
    return body.data.map((r) => r.name);
  };
  const ready = async (): Promise<{
    status: string;
    components: { relayers: { status: string; targets_file_problem?: string } };
  }> =>
    (await (
      await fetch(`${server?.url}/api/v1/ready`, { headers: { authorization: `Bearer ${ADMIN}` } })
    ).json()) as never;
  /** The next time the server takes the file, from the log lines written after this call. */
  const taken = (): Promise<unknown> => {
    const mark = server!.logs.length;
    return server!.untilLog(
      (l) => l.msg === 'RELAYER_SYNC_FILE reloaded' && server!.logs.indexOf(l) >= mark,
      10_000,
      'the file taken',
    );
  };

  beforeEach(async () => {
    root = makeConfigDir({ 'evm/sepolia.yaml': networkYaml({ rpc_urls: ['https://sepolia-a.example.com'] }) });
    file = path.join(root, '..', `relayers-${path.basename(root)}.yaml`);
    eu = await startStandInRelayer(KEYS.EU_KEY, []);
    us = await startStandInRelayer(KEYS.US_KEY_2, []);
    writeFileSync(file, `relayers:\n${entry('eu', eu, 'EU_KEY')}`);
    server = await startChild({
      CONFIG_DIR: root,
      API_KEY: ADMIN,
      RELAYER_SYNC_FILE: file,
      RELAYER_SYNC_INTERVAL_MS: '60000',
      ...KEYS,
    });
    await eu.untilRequests(1, 'GET');
    await server.untilLog((l) => String(l.msg).startsWith('RELAYER_SYNC_FILE followed'), 10_000, 'the file followed');
  });
  afterEach(async () => {
    await server?.stop();
    server = null;
    await eu.close();
    await us.close();
    removeDir(root);
  });

  it('a relayer added is listed at once, a broken change keeps the list and says where, a relayer changed or removed follows the file', async () => {
    expect(await relayers()).to.deep.equal(['eu']);
    // Added, with a key the stand-in refuses: listed (and refused), so it is in the sync.
    let next = taken();
    write(`relayers:\n${entry('eu', eu, 'EU_KEY')}${entry('us', us, 'US_KEY')}`);
    await next;
    await us.untilRequests(1, 'GET');
    expect(await relayers()).to.deep.equal(['eu', 'us']);
    expect(us.requests[0]?.authorized, 'the key US_KEY names').to.equal(false);

    write('relayers:\n  - name: eu\n    url: [\n');
    const problem = await server!.untilLog(
      (l) => String(l.msg).startsWith('RELAYER_SYNC_FILE changed but cannot be used'),
      10_000,
      'the broken file',
    );
    expect(problem).to.be.an('object');
    const broken = await ready();
    expect(broken.components.relayers.targets_file_problem).to.match(/relayers-.*\.yaml:\d+:\d+: /);
    expect(broken.components.relayers.status).to.equal('degraded');
    expect(broken.status).to.equal('degraded');
    expect(await relayers(), 'the last good list').to.deep.equal(['eu', 'us']);

    // Changed: its key now read from US_KEY_2, which the stand-in takes.
    const before = us.requests.length;
    next = taken();
    write(`relayers:\n${entry('eu', eu, 'EU_KEY')}${entry('us', us, 'US_KEY_2')}`);
    await next;
    await us.untilRequests(before + 1, 'GET');
    expect(us.requests.at(-1)?.authorized, 'the new key').to.equal(true);
    expect((await ready()).components.relayers.targets_file_problem).to.equal(undefined);

    next = taken();
    write(`relayers:\n${entry('us', us, 'US_KEY_2')}`);
    await next;
    expect(await relayers()).to.deep.equal(['us']);
  });
});
