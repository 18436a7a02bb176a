/**
 * The in-memory index: id order for pages, a family as a contiguous range of ids, a revision
 * that counts changes, no change for the same bytes, and the invalid-file list.
 */
import { expect } from 'chai';
import { parseNetworkFile } from '../../../src/store/validation/network-file.js';
import type { NetworkRecord } from '../../../src/store/network-record.js';
import { parseNetworkId } from '../../../src/store/files/layout.js';
import { NetworkIndex, type IndexChange } from '../../../src/store/index/network-index.js';
import { OPEN_POLICY } from '../../../src/store/validation/url-rules.js';

/** A real record for `id`; `variant` changes the bytes (a comment) and so the ETag. */
function record(id: string, variant = 0, ext = '.yaml'): NetworkRecord {
  const parsed = parseNetworkId(id);
  if (!parsed) throw new Error(`bad id ${id}`);
  const rel = `${parsed.family}/${parsed.name}${ext}`;
  const outcome = parseNetworkFile(`# v${variant}\nrpc_urls:\n  - https://a.example.com\n`, parsed, rel, OPEN_POLICY);
  if (!outcome.ok) throw new Error('fixture should be valid');
  return outcome.record;
}

function ids(index: NetworkIndex, offset = 0, limit = 1000, family?: string): string[] {
  return index.page(offset, limit, family).records.map((r) => r.id);
}

describe('store/network-index', () => {
  it('put: added, then null for the same bytes, then modified; remove: deleted, then null', () => {
    const index = new NetworkIndex();
    const changes: IndexChange[] = [];
    index.onChange((c) => changes.push(c));
    const v0 = record('evm:sepolia', 0);
    const v1 = record('evm:sepolia', 1);
    expect(index.put(v0)).to.deep.equal({ kind: 'added', id: 'evm:sepolia', etag: v0.etag, revision: 1, actor: null });
    expect(index.put(record('evm:sepolia', 0))).to.equal(null);
    expect(index.revision).to.equal(1);
    expect(index.put(v1, 'token:ops')).to.deep.equal({
      kind: 'modified',
      id: 'evm:sepolia',
      etag: v1.etag,
      revision: 2,
      actor: 'token:ops',
    });
    expect(index.get('evm:sepolia')).to.equal(v1);
    expect(index.remove('evm:sepolia')).to.deep.equal({
      kind: 'deleted',
      id: 'evm:sepolia',
      etag: null,
      revision: 3,
      actor: null,
    });
    expect(index.remove('evm:sepolia')).to.equal(null);
    expect(index.revision).to.equal(3);
    expect(changes.map((c) => c.kind)).to.deep.equal(['added', 'modified', 'deleted']);
    expect(index.size).to.equal(0);
    expect(index.has('evm:sepolia')).to.equal(false);
  });

  it('put of the same bytes from the other extension is a change (the served path moved)', () => {
    const index = new NetworkIndex();
    index.put(record('evm:sepolia', 0, '.yaml'));
    const change = index.put(record('evm:sepolia', 0, '.yml'));
    expect(change?.kind).to.equal('modified');
    expect(index.get('evm:sepolia')?.path).to.equal('evm/sepolia.yml');
  });

  it('pages in id order whatever the insertion order, with the total and the revision', () => {
    const index = new NetworkIndex();
    const all = ['solana:devnet', 'evm:sepolia', 'stellar:testnet', 'evm:mainnet', 'evm:holesky', 'solana:testnet'];
    for (const id of all) index.put(record(id));
    const sorted = [...all].sort();
    expect(ids(index)).to.deep.equal(sorted);
    expect(ids(index, 0, 2)).to.deep.equal(sorted.slice(0, 2));
    expect(ids(index, 2, 2)).to.deep.equal(sorted.slice(2, 4));
    expect(ids(index, 4, 10)).to.deep.equal(sorted.slice(4));
    expect(index.page(6, 10)).to.deep.include({ records: [], total: 6, revision: 6 });
    expect(index.page(100, 10).total).to.equal(6);
    index.remove('evm:holesky');
    expect(ids(index)).to.deep.equal(sorted.filter((id) => id !== 'evm:holesky'));
  });

  it('a family is exactly the ids with that prefix, not families that share its first letters', () => {
    const index = new NetworkIndex();
    const all = ['ev:a', 'evm:a', 'evm:z', 'evm-x:a', 'evm2:a', 'evm_x:a', 'evmx:a', 'solana:a', 'e:a'];
    for (const id of all) index.put(record(id));
    expect(ids(index, 0, 100, 'evm')).to.deep.equal(['evm:a', 'evm:z']);
    expect(index.page(0, 100, 'evm').total).to.equal(2);
    expect(ids(index, 1, 100, 'evm')).to.deep.equal(['evm:z']);
    expect(ids(index, 0, 100, 'ev')).to.deep.equal(['ev:a']);
    expect(ids(index, 0, 100, 'evm2')).to.deep.equal(['evm2:a']);
    expect(index.page(0, 100, 'cosmos')).to.deep.include({ records: [], total: 0 });
  });

  it('a bulk load appends unsorted and still pages in order, removals included', () => {
    const index = new NetworkIndex();
    index.beginBulk();
    const all = Array.from({ length: 50 }, (_, i) => `fam${i % 3}:net-${String(49 - i).padStart(2, '0')}`);
    for (const id of all) index.put(record(id));
    index.remove('fam0:net-49');
    const expected = all.filter((id) => id !== 'fam0:net-49').sort();
    expect(ids(index)).to.deep.equal(expected);
    index.put(record('fam1:aaa'));
    expect(ids(index, 0, 1000, 'fam1')[0]).to.equal('fam1:aaa');
  });

  it('a listener stops hearing changes once it unsubscribes', () => {
    const index = new NetworkIndex();
    const heard: string[] = [];
    const off = index.onChange((c) => heard.push(c.id));
    index.put(record('evm:a'));
    off();
    index.put(record('evm:b'));
    expect(heard).to.deep.equal(['evm:a']);
  });

  it('invalid files: set, replace, list sorted by path then line, clear', () => {
    const index = new NetworkIndex();
    index.setProblems('evm/z.yaml', [{ path: 'evm/z.yaml', line: 1, column: 1, error: 'z' }]);
    index.setProblems('evm/a.yaml', [
      { path: 'evm/a.yaml', line: 9, column: 1, error: 'late' },
      { path: 'evm/a.yaml', line: 2, column: 3, error: 'early' },
    ]);
    expect(index.invalidFiles().map((f) => `${f.path}:${f.line}`)).to.deep.equal([
      'evm/a.yaml:2',
      'evm/a.yaml:9',
      'evm/z.yaml:1',
    ]);
    expect(index.problemPaths()).to.have.members(['evm/a.yaml', 'evm/z.yaml']);
    index.setProblems('evm/a.yaml', []);
    index.clearProblems('evm/z.yaml');
    expect(index.invalidFiles()).to.deep.equal([]);
    expect(index.revision, 'problems are not index changes').to.equal(0);
  });
});
