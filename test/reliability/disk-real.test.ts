/**
 * The disk says no, for real: the config folder on a 256 KiB tmpfs that is filled up (ENOSPC) and
 * then remounted read-only (EROFS). No stand-in disk steps are involved, so this also covers the lock, which
 * proper-lockfile takes with the real fs. Needs root and mount(8); skipped where the machine does
 * not allow mounting (most CI runners), in which case disk-failure.test.ts still covers the disk steps.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createApp } from '../../src/http/app.js';
import type { NetworkStore } from '../../src/store/network-store.js';
import { networkYaml, writeFile } from '../helpers/fixtures.js';
import { tempFiles } from '../helpers/reliability-disk.js';
import { isEnvelope } from '../helpers/reliability-http.js';
import { startStore } from '../helpers/store.js';

const FILE = 'evm/sepolia.yaml';

function tryMount(dir: string): boolean {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Writes 4 KiB blocks into `file` until the file system is full. */
function fillUp(file: string): void {
  const block = Buffer.alloc(4096, 120);
  for (;;) {
    try {
      writeFileSync(file, block, { flag: 'a' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOSPC') return;
      throw err;
    }
  }
}

describe('reliability: a real full and read-only file system (tmpfs)', function () {
  let mountPoint: string;
  let mounted = false;
  let store: NetworkStore | undefined;
  let agent: ReturnType<typeof request>;

  before(async function () {
    mountPoint = mkdtempSync(path.join(tmpdir(), 'netcfg-tmpfs-'));
    mounted = tryMount(mountPoint);
    if (!mounted) this.skip();
    writeFile(mountPoint, FILE, networkYaml());
    // proper-lockfile retries every error, EROFS included, for the whole lock wait (12 s by
    // default) before the 503; a short wait keeps this test quick without changing the outcome.
    store = await startStore(mountPoint, { lock: { maxWaitMs: 1500 } });
    agent = request(createApp(store).callback());
  });
  after(async () => {
    await store?.close();
    if (mounted) execFileSync('umount', ['-l', mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });

  async function expectRefusedThenRecovered(
    code: string,
    breakDisk: () => void,
    repairDisk: () => void,
  ): Promise<void> {
    const file = path.join(mountPoint, FILE);
    const before = readFileSync(file);
    breakDisk();
    const urls = [{ url: `https://${code.toLowerCase()}.example.com/rpc`, weight: 10 }];
    const refused = await agent.patch('/api/v1/networks/evm:sepolia').send({ rpc_urls: urls });
    expect(refused.status, refused.text).to.equal(503);
    expect(isEnvelope(refused.text)).to.equal(true);
    expect(refused.body.code).to.equal('STORAGE_UNAVAILABLE');
    expect(refused.body.error).to.include(code);
    expect(readFileSync(file).equals(before), 'the file changed').to.equal(true);
    expect(tempFiles(mountPoint)).to.deep.equal([]);
    expect((await agent.get('/api/v1/networks/evm:sepolia')).status).to.equal(200);
    const ready = (await agent.get('/api/v1/ready')).body as {
      ready: boolean;
      components: { storage: { status: string; error?: string } };
    };
    expect(ready.ready).to.equal(true);
    expect(ready.components.storage.status, 'readiness must say the disk refused the write').to.equal('degraded');
    expect(ready.components.storage.error ?? '').to.include(code);

    repairDisk();
    const retried = await agent.patch('/api/v1/networks/evm:sepolia').send({ rpc_urls: urls });
    expect(retried.status, retried.text).to.equal(200);
    const healthy = (await agent.get('/api/v1/ready')).body as { components: { storage: { status: string } } };
    expect(healthy.components.storage.status).to.equal('healthy');
  }

  it('full: ENOSPC is a 503 and the next PATCH after space is freed succeeds', async () => {
    const filler = path.join(mountPoint, '.filler');
    await expectRefusedThenRecovered(
      'ENOSPC',
      () => fillUp(filler),
      () => unlinkSync(filler),
    );
  });

  it('read-only: EROFS is a 503 and the next PATCH after a read-write remount succeeds', async () => {
    await expectRefusedThenRecovered(
      'EROFS',
      () => execFileSync('mount', ['-o', 'remount,ro', mountPoint]),
      () => execFileSync('mount', ['-o', 'remount,rw', mountPoint]),
    );
  });
});

describe('reliability: a family folder on another file system (EXDEV)', function () {
  let root: string;
  let mounted = false;
  let store: NetworkStore | undefined;

  before(async function () {
    root = mkdtempSync(path.join(tmpdir(), 'netcfg-exdev-'));
    mkdirSync(path.join(root, 'evm'));
    mounted = tryMount(path.join(root, 'evm'));
    if (!mounted) this.skip();
    writeFile(root, FILE, networkYaml());
    store = await startStore(root);
  });
  after(async () => {
    await store?.close();
    if (mounted) execFileSync('umount', ['-l', path.join(root, 'evm')]);
    rmSync(root, { recursive: true, force: true });
  });

  it('a PATCH cannot rename from .tmp/ across file systems, so it writes its temp file beside the file', async () => {
    const res = await request(createApp(store as NetworkStore).callback())
      .patch('/api/v1/networks/evm:sepolia')
      .send({ rpc_urls: ['https://exdev.example.com'] });
    expect(res.status, res.text).to.equal(200);
    expect(readFileSync(path.join(root, FILE), 'utf8')).to.include('https://exdev.example.com');
    expect(tempFiles(root)).to.deep.equal([]);
  });
});
