/**
 * The git side of a store, opened at start: git in the work tree holding the config folder
 * (history, GIT_COMMIT's commits), and with GIT_SYNC the clone following its remote branch. Its
 * open() builds the writer's write strategy once: a write is committed after it, or queued for the
 * push that answers it, and waits for git's own lock on the work tree either way.
 */
import path from 'node:path';
import type { ReadinessInputs } from './readiness.js';
import { NetcfgError } from '../errors.js';
import { candidatesOf, requireNetworkId, type NetworkId } from './files/layout.js';
import { WorkTree, type Commit, type GitAuthor } from './git/work-tree.js';
import { versionAt, type NetworkVersion } from './history/network-versions.js';
import type { UrlPolicy } from './validation/url-rules.js';
import { GitSync } from './git/git-sync.js';
import { ProposalBranches } from './proposals/proposal-branch.js';
import type { DroppedNote } from './git/sync-report.js';
import type { RetryCounts } from './retries.js';
import { FILE_ONLY, type WriteStrategy } from './write/write-strategy.js';
import type { WriteLocks } from './write/write-lock.js';
import { LeaseFile, type LeaseSlot } from './files/lease-file.js';
import { LeaseRef } from './git/lease-ref.js';

export interface GitSyncSettings {
  intervalMs: number;
  /** The deadline of each command that talks to the remote (default 10 s). */
  remoteTimeoutMs?: number;
  /** Told once when a force-push dropped commits the clone had (to be logged loudly). */
  onDropped?: (note: DroppedNote) => void;
}

/** GIT_REMOTE_TIMEOUT_MS's default: a git host that has not answered in 10 s is not going to. */
export const DEFAULT_REMOTE_TIMEOUT_MS = 10_000;

export interface GitParts {
  root: string;
  /** The clone's top on the way to the folder (config-folder.ts), when the folder is in one. */
  cloneTop: string | null;
  author: GitAuthor;
  gitCommit: boolean;
  gitSync: GitSyncSettings | undefined;
  locks: WriteLocks;
  retries: RetryCounts;
}

/** What open() found, fixed from then on. */
interface OpenedGit {
  workTree: WorkTree | null;
  gitSync: GitSync | null;
  proposals: ProposalBranches | null;
}

/**
 * The store's git, built with the store and opened at its start; open() returns the writer's write
 * strategy (network-writer.ts), one value from then on.
 */
export class StoreGit {
  private opened: OpenedGit = { workTree: null, gitSync: null, proposals: null };

  constructor(private readonly parts: GitParts) {}

  /** git in the work tree holding the folder (history, commits), once open; null outside one. */
  get workTree(): WorkTree | null {
    return this.opened.workTree;
  }

  /** GIT_SYNC: the branches proposals are pushed to, next to the remote branch the clone follows; NOT_IMPLEMENTED without it. */
  requireProposals(): ProposalBranches {
    if (this.opened.proposals) return this.opened.proposals;
    throw new NetcfgError(
      'NOT_IMPLEMENTED',
      'A proposal needs GIT_SYNC (the config folder in a clone following a remote branch); it is off.',
    );
  }

  /** True while a git command (a pull, a checkout, this process's or another's) holds the work tree's index.lock. */
  rewriting(): boolean {
    return this.opened.workTree?.indexLock.held() ?? false;
  }

  /** GIT_SYNC: the clone following its remote branch, once open. */
  get gitSync(): GitSync | null {
    return this.opened.gitSync;
  }

  /** GIT_SYNC: pulls now, then every GIT_SYNC_INTERVAL_MS (after the first load). */
  async follow(): Promise<void> {
    await this.gitSync?.start(this.parts.gitSync?.intervalMs ?? 5000);
  }

  /** GIT_SYNC: a pull now, resolved once it is done (at once without GIT_SYNC). */
  async pull(): Promise<void> {
    await this.gitSync?.pull();
  }

  /** Starts a pull now (a verified webhook); false without GIT_SYNC. */
  pullNow(): boolean {
    if (!this.gitSync) return false;
    void this.gitSync.pull();
    return true;
  }

  /** Stops following and kills every git command still running (writes waiting for a push hear 503). */
  async close(): Promise<void> {
    await this.gitSync?.close();
    this.workTree?.stop();
  }

  /** The commits of a network's file, newest first, with the values of trailers `keys`. */
  async history(
    id: NetworkId,
    skip: number,
    limit: number,
    keys: readonly string[] = [],
  ): Promise<{ commits: Commit[]; total: number }> {
    const workTree = this.requireWorkTree();
    const files = candidatesOf(id).map(({ rel }) => path.join(this.parts.root, rel));
    return workTree.history(files, skip, limit, keys);
  }

  /** The network as of commit `sha` and just before it. */
  async versionAt(id: string, sha: string, policy: UrlPolicy): Promise<NetworkVersion> {
    return versionAt(this.requireWorkTree(), this.parts.root, requireNetworkId(id), sha, policy);
  }

  /** git in the work tree, for what only a work tree can answer; NOT_IMPLEMENTED outside one. */
  private requireWorkTree(): WorkTree {
    if (this.workTree) return this.workTree;
    throw new NetcfgError(
      'NOT_IMPLEMENTED',
      'History needs the config folder to be inside a git work tree; it is not.',
    );
  }

  /** Where the relayer lease lives: with GIT_SYNC a ref of the remote (lease-ref.ts), else a file in `lockDir` (lease-file.ts). */
  leaseSlot(lockDir: () => string): LeaseSlot {
    const { gitSync, locks } = this.parts;
    if (!gitSync) return new LeaseFile(lockDir, locks.staleMs);
    return new LeaseRef(() => {
      const top = this.workTree?.top;
      const upstream = this.gitSync?.upstream;
      if (top === undefined || upstream === undefined) throw new Error('the clone is not open yet');
      return { top, remote: upstream.slice(0, upstream.indexOf('/')) };
    }, gitSync.remoteTimeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS);
  }

  /** What readiness shows of git: the work tree's state, and with GIT_SYNC the clone's against its remote. */
  report(): Pick<ReadinessInputs, 'workTree' | 'gitCommit' | 'gitSync'> {
    const workTree = this.workTree;
    return {
      workTree: workTree && {
        pendingCount: workTree.pendingCount,
        waiting: workTree.indexLock.waiting,
        lastFailure: workTree.lastFailure,
      },
      gitCommit: this.parts.gitCommit,
      gitSync: this.gitSync?.status() ?? null,
    };
  }

  /**
   * Opens git: the work tree, and with GIT_SYNC the clone reset to its remote. Returns where a write
   * goes beyond its file: git's lock to wait for, and GIT_COMMIT's committer (the work tree) or
   * GIT_SYNC's git sync (the clone's queue of writes to push); nothing of it changes after.
   */
  async open(): Promise<WriteStrategy> {
    const { root, cloneTop, author, gitSync: syncSettings, gitCommit, locks, retries } = this.parts;
    // Found from the clone's top, not through the folder: a commit may have made the folder a link out.
    const workTree = await WorkTree.open(cloneTop ?? root, author);
    if (!syncSettings) {
      this.opened = { workTree, gitSync: null, proposals: null };
      if (!workTree) return FILE_ONLY;
      return Object.freeze({ gitLock: workTree.indexLock, committer: gitCommit ? workTree : null, gitSync: null });
    }
    if (!workTree)
      throw new Error(
        `GIT_SYNC needs CONFIG_DIR (${path.resolve(root)}) inside a git clone; it is not in a git work tree.`,
      );
    // What moves the work tree waits for the writers' turn: never between a write's read and its commit.
    const remoteTimeoutMs = syncSettings.remoteTimeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS;
    const gitSync = await GitSync.open(workTree, (fn) => locks.inTurn('*', fn), {
      staleMs: locks.staleMs,
      remoteTimeoutMs,
      onDropped: syncSettings.onDropped,
      retries,
    });
    this.opened = { workTree, gitSync, proposals: new ProposalBranches(workTree, gitSync.upstream, remoteTimeoutMs) };
    return Object.freeze({ gitLock: workTree.indexLock, committer: null, gitSync });
  }
}
