/**
 * Readiness as data: whether the store serves, and the state of each part (index, watcher, disk,
 * git). The HTTP layer turns it into 200 or 503; invalid files only make it "degraded", since one
 * bad file merged in git must not take every replica out of service.
 */
import type { GitSyncStatus } from './git/sync-report.js';
import type { InvalidFile } from './index/network-index.js';
import type { WatcherStatus } from './watch/watcher.js';

export type HealthStatus = 'healthy' | 'degraded' | 'unhealthy';

export interface Readiness {
  ready: boolean;
  status: HealthStatus;
  reason?: string;
  components: {
    index: {
      status: HealthStatus;
      networks: number;
      invalid_files: InvalidFile[];
      loaded_at: string | null;
      problem?: string;
    };
    watcher: { status: HealthStatus; state: string; last_event_at: string | null; error?: string };
    storage: { status: HealthStatus; error?: string; failed_at?: string };
    git?: {
      status: HealthStatus;
      commit_on_write: boolean;
      pending_commits: number;
      writes_waiting_for_git: number;
      error?: string;
    } & Partial<GitSyncStatus>;
  };
  timestamp: string;
}

/** What readiness is made of, as the store sees it now. */
export interface ReadinessInputs {
  loadedAt: Date | null;
  rootProblem: string | null;
  /** The folder is served, but not as it should be (a link git made, no network at all). */
  folderWarning: string | null;
  networks: number;
  invalid: InvalidFile[];
  watcher: { status: WatcherStatus; lastEventAt: Date | null; lastError: string | null };
  writeFailure: { at: Date; message: string } | null;
  /** The git work tree holding the folder, when there is one: commits waiting, writes waiting for git's lock, its last failure. */
  workTree: { pendingCount: number; waiting: number; lastFailure: { message: string } | null } | null;
  gitCommit: boolean;
  /** GIT_SYNC's view of the remote, when it is on. */
  gitSync: GitSyncStatus | null;
}

export function readinessOf({
  loadedAt,
  rootProblem,
  folderWarning,
  networks,
  invalid,
  watcher,
  writeFailure,
  workTree,
  gitCommit,
  gitSync,
}: ReadinessInputs): Readiness {
  const loaded = loadedAt !== null;
  const watcherFailed = watcher.status === 'failed' || watcher.status === 'stopped';
  const indexStatus: HealthStatus =
    !loaded || rootProblem ? 'unhealthy' : invalid.length > 0 || folderWarning ? 'degraded' : 'healthy';
  const watcherStatus: HealthStatus =
    watcher.status === 'watching'
      ? watcher.lastError
        ? 'degraded'
        : 'healthy'
      : watcher.status === 'starting'
        ? 'degraded'
        : 'unhealthy';
  const storageStatus: HealthStatus = writeFailure ? 'degraded' : 'healthy';
  // An unreachable remote degrades the git component, never readiness itself: reads go on.
  const gitFailure = workTree?.lastFailure ?? (gitSync?.problem ? { message: gitSync.problem } : null);
  const ready = loaded && rootProblem === null && !watcherFailed;
  let reason: string | undefined;
  if (!loaded) reason = 'the configuration is still loading';
  else if (rootProblem) reason = rootProblem;
  else if (watcherFailed) reason = `the file watcher is ${watcher.status}`;
  else if (folderWarning) reason = folderWarning;
  else if (invalid.length > 0)
    reason = `${invalid.length} problem(s) in the config folder; the last valid version of each network is served`;
  else if (writeFailure) reason = writeFailure.message;
  else if (gitFailure) reason = gitFailure.message;
  else if (watcher.lastError) reason = `the file watcher reported: ${watcher.lastError}`;
  else if (watcher.status === 'starting') reason = 'the file watcher is still starting';
  const statuses = [indexStatus, watcherStatus, storageStatus, gitFailure ? 'degraded' : 'healthy'];
  const status: HealthStatus = !ready ? 'unhealthy' : statuses.includes('degraded') ? 'degraded' : 'healthy';
  return {
    ready,
    status,
    ...(reason === undefined ? {} : { reason }),
    components: {
      index: {
        status: indexStatus,
        networks,
        invalid_files: invalid,
        loaded_at: loadedAt?.toISOString() ?? null,
        ...(folderWarning && loaded ? { problem: folderWarning } : {}),
      },
      watcher: {
        status: watcherStatus,
        state: watcher.status,
        last_event_at: watcher.lastEventAt?.toISOString() ?? null,
        ...(watcher.lastError ? { error: watcher.lastError } : {}),
      },
      storage: {
        status: storageStatus,
        ...(writeFailure ? { error: writeFailure.message, failed_at: writeFailure.at.toISOString() } : {}),
      },
      ...(workTree
        ? {
            git: {
              status: gitFailure ? 'degraded' : 'healthy',
              commit_on_write: gitCommit,
              pending_commits: workTree.pendingCount,
              writes_waiting_for_git: workTree.waiting,
              ...(gitFailure ? { error: gitFailure.message } : {}),
              ...(gitSync ?? {}),
            },
          }
        : {}),
    },
    timestamp: new Date().toISOString(),
  };
}
