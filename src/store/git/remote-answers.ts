/**
 * What git's failures mean for GIT_SYNC: a push refused because the branch moved on (the writers
 * edit again) told apart from one that could not reach the remote or found the branch gone (the
 * writers hear 503, and readiness says why).
 */
import { NetcfgError } from '../../errors.js';
import { firstLine } from './git-process.js';
import type { GitSyncReport } from './sync-report.js';
import type { TrackedBranch } from './tracked-branch.js';

/**
 * Whether a failed push was refused because the branch moved on: by git's check before the push,
 * by a lease that found it elsewhere, or by a push of another replica that won the race to update the ref.
 */
export function isRejection(err: unknown): boolean {
  return /\[rejected\]|non-fast-forward|fetch first|cannot lock ref|failed to update ref/.test(
    String((err as { stderr?: string }).stderr ?? ''),
  );
}

/** What the writers hear when a push failed for another reason than the branch moving on; `report` says it to readiness. */
export async function pushFailure(
  failure: unknown,
  branch: TrackedBranch,
  report: GitSyncReport,
  remoteTimeoutMs: number,
): Promise<NetcfgError> {
  report.pushFailed();
  const reason = (failure as { reason?: string }).reason;
  // A lease refused: the branch is not where it was; gone, when the remote no longer lists it.
  if (
    /stale info/.test(String((failure as { stderr?: string }).stderr)) &&
    (await branch.remoteHead().catch(() => null)) === ''
  ) {
    return new NetcfgError('GIT_REMOTE_UNAVAILABLE', `${report.missing()}; nothing was changed.`);
  }
  report.failed(`git push to ${branch.upstream} failed: ${firstLine(failure)}`);
  if (reason === 'timeout') {
    return new NetcfgError(
      'GIT_REMOTE_UNAVAILABLE',
      `${branch.upstream} gave no answer to the push within ${remoteTimeoutMs} ms; ` +
        `the change is not served and most likely not pushed (if the remote took it after all, the next pull serves it): GET the network before you retry.`,
    );
  }
  if (reason === 'aborted')
    return new NetcfgError(
      'GIT_REMOTE_UNAVAILABLE',
      'netcfg is shutting down: the change was not pushed and is not served; retry (another replica may answer).',
    );
  return new NetcfgError(
    'GIT_REMOTE_UNAVAILABLE',
    `The change could not be pushed to ${branch.upstream} (${firstLine(failure)}); nothing was changed, retry later.`,
    { cause: failure },
  );
}
