/**
 * The store's proposals against a real remote: a bare repository served by `git daemon` on loopback
 * holding `files` (under config/networks/), a clone of it (`replica`), and a GIT_SYNC store on the
 * clone that pulls only when asked (an hour's interval), so a test decides when the remote is read.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { NetworkStore } from '../../src/store/network-store.js';
import { bareOf, cloneOf, startGitRemote, type GitRemote } from './git-daemon.js';
import { git } from './git-repo.js';
import { startStore } from './store.js';

const HOUR = 3_600_000;

export interface ProposalReplica {
  remote: GitRemote;
  /** The clone the store serves from. */
  replica: string;
  store: NetworkStore;
  /** git in the bare repository the daemon serves, its output trimmed. */
  bare(...args: string[]): string;
  /** Closes the store, stops the daemon and removes the remote. */
  close(): Promise<void>;
}

export async function startProposalReplica(files: Record<string, string>): Promise<ProposalReplica> {
  const remote = await startGitRemote(files);
  const replica = cloneOf(remote, 'replica');
  const store = await startStore(path.join(replica, 'config', 'networks'), {
    gitSync: { intervalMs: HOUR, remoteTimeoutMs: 3000 },
    gitAuthor: { name: 'netcfg', email: 'netcfg@example.com' },
  });
  return {
    remote,
    replica,
    store,
    bare: (...args) => git(bareOf(remote), ...args).trim(),
    async close() {
      await store.close();
      await remote.stop();
      rmSync(remote.dir, { recursive: true, force: true });
    },
  };
}
