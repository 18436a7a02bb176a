/**
 * A network's open proposals (GIT_PROPOSALS): the pull requests netcfg opened for it, each a link
 * to the forge, read from GET /api/v1/networks/{id}/proposals; read again after each proposal made
 * from this page. A forge that cannot be asked is said in a sentence, never as an empty list.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, type Api, type ListedProposal } from '../state/api.js';

export function NetworkProposals({
  id,
  api,
  enabled,
  refresh,
}: {
  id: string;
  api: Api;
  enabled: boolean;
  refresh: number;
}) {
  const [open, setOpen] = useState<ListedProposal[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    api.get<ListedProposal[]>(`/api/v1/networks/${encodeURIComponent(id)}/proposals`).then(
      ({ data }) => current && (setOpen(data), setProblem(null)),
      (err: unknown) => current && setProblem(err instanceof ApiError ? err.message : String(err)),
    );
    return () => {
      current = false;
    };
  }, [id, enabled, refresh]);
  if (!enabled) return null;
  return (
    <section aria-labelledby="proposals-title">
      <h2 id="proposals-title">Open proposals</h2>
      {problem !== null && <p class="problem">The proposals could not be listed: {problem}</p>}
      {problem === null && open === null && <p>Loading the open proposals...</p>}
      {problem === null && open !== null && open.length === 0 && <p>No open proposal for this network.</p>}
      {problem === null && open !== null && open.length > 0 && (
        <ul aria-label="Open proposals">
          {open.map((p) => (
            <li key={p.url}>
              <a href={p.url} target="_blank" rel="noopener noreferrer">
                #{p.number} {p.title}
              </a>{' '}
              by {p.actor}, updated {p.updated_at}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
