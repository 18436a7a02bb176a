/**
 * The index cache: a restart re-parses only what changed, and the cache can never make the server
 * serve something the files do not say. Real folders, real stores started and stopped; where a
 * test must prove the cache (not the file) was read, it edits the cache file itself.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { readIndexCache } from '../../../src/store/index/index-cache.js';
import type { NetworkStore } from '../../../src/store/network-store.js';
import { makeConfigDir, networkYaml, removeDir, writeFile } from '../../helpers/fixtures.js';
import { startStore, served } from '../../helpers/store.js';
import { networkOf } from '../../../src/store/network-record.js';

const SERVED = 'https://rpc.example.com';
const PLANTED = 'https://planted-in-the-cache.example.com';

/** Rewrites the cached JSON of one file, leaving its stamp: only a read of the cache can serve it. */
function plant(cacheFile: string, rel: string): void {
  const lines = readFileSync(cacheFile, 'utf8').split('\n');
  const at = lines.findIndex((l) => l.startsWith(`[${JSON.stringify(rel)},`));
  expect(at, `${rel} is in the cache`).to.be.greaterThan(0);
  const entry = JSON.parse(lines[at] as string) as [string, string, string, string];
  entry[3] = entry[3].replace(SERVED, PLANTED);
  lines[at] = JSON.stringify(entry);
  writeFileSync(cacheFile, lines.join('\n'));
}

function firstUrl(store: NetworkStore, id: string): string | undefined {
  const record = served(store, id);
  return record ? (networkOf(record).rpc_urls as Array<{ url: string }>)[0]?.url : undefined;
}

describe('store/index-cache', () => {
  let root: string;
  let cache: string;
  beforeEach(() => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`fam${i % 3}/net${i}.yaml`] = networkYaml();
    root = makeConfigDir(files);
    cache = path.join(root, '.cache', 'index.jsonl');
  });
  afterEach(() => removeDir(root));

  async function runOnce(options: Parameters<typeof startStore>[1] = {}): Promise<NetworkStore> {
    const store = await startStore(root, { indexCache: cache, ...options });
    await store.close();
    return store;
  }

  it('a stopped store leaves a cache of every network, and a restart serves it without parsing', async () => {
    const cold = await runOnce();
    const header = JSON.parse(readFileSync(cache, 'utf8').split('\n')[0] as string) as { fingerprint: string };
    expect(readIndexCache(cache, header.fingerprint)?.size).to.equal(30);
    plant(cache, 'fam1/net4.yaml');
    const warm = await runOnce();
    expect(firstUrl(warm, 'fam1:net4')).to.equal(PLANTED); // from the cache: the file was not parsed
    expect(firstUrl(warm, 'fam1:net7')).to.equal(SERVED);
    for (const id of cold.ids()) if (id !== 'fam1:net4') expect(served(warm, id)).to.deep.equal(served(cold, id));
  });

  it('a file edited while stopped is parsed again, even with its size and mtime put back', async () => {
    await runOnce();
    plant(cache, 'fam1/net4.yaml');
    const file = path.join(root, 'fam1/net4.yaml');
    const times = path.join(root, '.times');
    execFileSync('touch', ['-r', file, times]); // keeps the mtime to the nanosecond
    const before = statSync(file, { bigint: true });
    const edited = networkYaml().replace('rpc.example.com', 'rpc.example.net');
    expect(edited.length).to.equal(readFileSync(file, 'utf8').length);
    writeFileSync(file, edited);
    execFileSync('touch', ['-r', times, file]);
    const after = statSync(file, { bigint: true });
    expect([after.ino, after.size, after.mtimeNs]).to.deep.equal([before.ino, before.size, before.mtimeNs]); // only ctime tells
    const warm = await runOnce();
    expect(firstUrl(warm, 'fam1:net4')).to.equal('https://rpc.example.net');
  });

  it('a file that became invalid while stopped is reported, never served from the cache', async () => {
    await runOnce();
    writeFile(root, 'fam2/net5.yaml', 'rpc_urls: [\n');
    const warm = await runOnce();
    expect(warm.ids().includes('fam2:net5')).to.equal(false);
    expect(warm.readiness().components.index.invalid_files.map((f) => f.path)).to.deep.equal(['fam2/net5.yaml']);
  });

  it('a cache written under another URL policy is not used', async () => {
    await runOnce();
    plant(cache, 'fam1/net4.yaml');
    const warm = await runOnce({ policy: { blockPrivate: true, allowedHosts: [] } });
    expect(firstUrl(warm, 'fam1:net4')).to.equal(SERVED);
  });

  it('a torn cache file is ignored, and replaced by a good one', async () => {
    await runOnce();
    const good = readFileSync(cache, 'utf8');
    writeFileSync(cache, good.slice(0, Math.floor(good.length / 2)));
    const warm = await runOnce();
    expect(warm.ids().length).to.equal(30);
    expect(
      readFileSync(cache, 'utf8')
        .split('\n')
        .filter((l) => l !== ''),
    ).to.have.length(31);
  });

  it('a cache file others could have written (writable by others, or not ours) is not trusted', async () => {
    await runOnce();
    plant(cache, 'fam1/net4.yaml');
    chmodSync(cache, 0o666);
    expect(firstUrl(await runOnce(), 'fam1:net4')).to.equal(SERVED);
    if (process.getuid?.() !== 0) return; // only root can give the file to someone else
    plant(cache, 'fam1/net4.yaml');
    chmodSync(cache, 0o600);
    chownSync(cache, 65534, 65534);
    expect(firstUrl(await runOnce(), 'fam1:net4')).to.equal(SERVED);
  });

  it('a cache that cannot be written is reported and changes nothing else', async () => {
    const errors: Error[] = [];
    const store = await startStore(root, {
      indexCache: path.join(root, 'fam0', 'net0.yaml', 'index.jsonl'),
      onError: (e) => errors.push(e),
    });
    expect(store.ids().length).to.equal(30);
    await store.close();
    expect(errors.map((e) => e.message).join('\n')).to.match(/could not write the index cache/);
  });
});
