/**
 * What pages share: the banner of what readiness says an operator must know (each invalid file as
 * `path:line:column: message`, its last valid version still served; the git component with
 * GIT_SYNC or GIT_COMMIT), the pager, and the line a read token is shown where Save or Revert
 * would be. The relayers kept in sync are relayers.tsx.
 */
import type { Readiness } from './state/server-state.js';

export function Banner({ ready }: { ready: Readiness | null }) {
  if (!ready) return null;
  const invalid = ready.components.index.invalid_files;
  const files = new Set(invalid.map((f) => f.path)).size;
  const git = ready.components.git;
  const gitError = git?.last_error ?? git?.error;
  return (
    <>
      {invalid.length > 0 && (
        <section class="banner problem" aria-labelledby="invalid-title">
          <h2 id="invalid-title">
            {files} invalid {files === 1 ? 'file' : 'files'}: the last valid version of each network is served
          </h2>
          <ul>
            {invalid.map((f, i) => (
              <li key={i}>
                <code>
                  {f.path}:{f.line}:{f.column}
                </code>
                : {f.error}
              </li>
            ))}
          </ul>
        </section>
      )}
      {git && (
        <section class={git.status === 'healthy' ? 'banner' : 'banner problem'} aria-label="Git">
          <strong>Git: {git.status}</strong>
          {git.head && <span> at {git.head.slice(0, 7)}</span>}
          {git.upstream && (
            <span>
              {' '}
              tracking {git.upstream} ({git.ahead ?? 0} ahead, {git.behind ?? 0} behind)
            </span>
          )}
          {(git.pending_commits ?? 0) > 0 && <span>, {git.pending_commits} commits waiting</span>}
          {gitError && <span>: {gitError}</span>}
        </section>
      )}
    </>
  );
}

/** Previous and next page buttons around "Page n of m"; nothing when there is one page. */
export function Pager({
  page,
  pages,
  onPage,
  labels = ['Previous page', 'Next page'],
}: {
  page: number;
  pages: number;
  onPage(page: number): void;
  labels?: [string, string];
}) {
  if (pages <= 1) return null;
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={page === 1} onClick={() => onPage(page - 1)}>
        {labels[0]}
      </button>
      <span>
        Page {page} of {pages}
      </span>
      <button type="button" disabled={page === pages} onClick={() => onPage(page + 1)}>
        {labels[1]}
      </button>
    </nav>
  );
}

/** In place of Save and Revert for a token that may only read: the server would refuse them (403). */
export function ReadOnlyNote() {
  return (
    <p class="notice" role="note">
      This token may only read: saving and reverting need a write or admin token.
    </p>
  );
}
