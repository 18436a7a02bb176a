/**
 * A network's commits (GET .../history), each with the change it made to `rpc_urls`
 * (GET .../history/{sha}), and Revert: the diff from the current URLs to that version's is shown
 * first, then applied through the same PATCH as an edit, with If-Match (offered to a token that may
 * write). Each commit names who made it: the actor netcfg signed it with, else git's author.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type Api, type Commit, type Network, type RpcUrl } from '../state/api.js';
import { Pager, ReadOnlyNote } from '../layout.js';
import type { Subscribe } from '../state/live.js';
import { changed, Diff, rpcDiff } from '../fields/rpc-diff.js';

interface Version {
  sha: string;
  network: Network | null;
  previous: Network | null;
  /** Why a side is null though its file existed (not a valid network then). */
  network_problem?: string;
  previous_problem?: string;
}

interface Entry {
  commit: Commit;
  version: Version | null;
  problem: string | null;
}

const PER_PAGE = 10;
const urlsOf = (n: Network | null): RpcUrl[] => n?.rpc_urls ?? [];
const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export function HistoryPage({
  id,
  api,
  subscribe,
  mayWrite,
}: {
  id: string;
  api: Api;
  subscribe: Subscribe;
  mayWrite: boolean;
}) {
  const [page, setPage] = useState(1);
  const [entries, setEntries] = useState<Entry[] | null>(null);
  const [pages, setPages] = useState(1);
  const [error, setError] = useState<string | null>(null);
  const [revert, setRevert] = useState<{ entry: Entry; current: Network; etag: string } | null>(null);
  const [notice, setNotice] = useState<{ text: string; problem: boolean } | null>(null);
  const [applying, setApplying] = useState(false);
  const dialogTitle = useRef<HTMLHeadingElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  // The dialog opens above the list: focus goes to it, and back to its Revert button when it closes.
  useEffect(() => {
    if (revert) dialogTitle.current?.focus();
    else if (returnTo.current?.isConnected) returnTo.current.focus();
  }, [revert]);
  const path = `/api/v1/networks/${encodeURIComponent(id)}`;
  const loads = useRef(0);

  const load = async (): Promise<void> => {
    const mine = ++loads.current; // only the latest load is shown, whichever answers last
    try {
      const { data, pagination } = await api.get<Commit[]>(`${path}/history?per_page=${PER_PAGE}&page=${page}`);
      const loaded = await Promise.all(
        data.map(async (commit) => {
          try {
            return { commit, version: (await api.get<Version>(`${path}/history/${commit.sha}`)).data, problem: null };
          } catch (err) {
            return { commit, version: null, problem: messageOf(err) };
          }
        }),
      );
      if (mine !== loads.current) return;
      setPages(pagination?.total_pages ?? 1);
      setEntries(loaded);
      setError(null);
    } catch (err) {
      if (mine === loads.current) setError(messageOf(err));
    }
  };
  useEffect(() => {
    void load();
    return subscribe((event) => {
      if (event.kind === 'reset' || (event.data.id === id && ['added', 'modified', 'deleted'].includes(event.kind)))
        void load();
    });
  }, [id, page]);

  const askRevert = async (entry: Entry): Promise<void> => {
    returnTo.current = document.activeElement as HTMLElement | null;
    try {
      const { data, etag } = await api.get<Network>(path);
      setNotice(null);
      setRevert({ entry, current: data, etag: etag ?? '' });
    } catch (err) {
      setNotice({ text: messageOf(err), problem: true });
    }
  };
  const applyRevert = async (): Promise<void> => {
    if (!revert || applying) return;
    if (!revert.etag) {
      setNotice({
        text: 'Not reverted: the server sent no ETag for this network, so a concurrent change could not be detected.',
        problem: true,
      });
      return setRevert(null);
    }
    setApplying(true);
    const target = urlsOf(revert.entry.version?.network ?? null);
    try {
      await api.patch(id, { rpc_urls: target }, revert.etag);
      setNotice({
        text: `Reverted the RPC URLs to their version of ${revert.entry.commit.sha.slice(0, 7)}.`,
        problem: false,
      });
      void load(); // the revert's own commit, which the change event may have come before
    } catch (err) {
      const conflict = err instanceof ApiError && err.status === 412;
      setNotice({
        text: conflict
          ? 'Not reverted: the network changed since the diff was shown. Review it again.'
          : `Not reverted: ${messageOf(err)}`,
        problem: true,
      });
    }
    setApplying(false);
    setRevert(null);
  };

  return (
    <>
      <nav class="crumbs" aria-label="Breadcrumb">
        <a href="#/">Networks</a> / <a href={`#/networks/${encodeURIComponent(id)}`}>{id}</a> /{' '}
        <span aria-current="page">History</span>
      </nav>
      <h1>History of {id}</h1>
      {!mayWrite && <ReadOnlyNote />}
      {notice && (
        <p
          key={notice.problem ? 'alert' : 'status'}
          role={notice.problem ? 'alert' : 'status'}
          class={notice.problem ? 'notice problem' : 'notice'}
        >
          {notice.text}
        </p>
      )}
      {error && (
        <p role="alert" class="problem">
          {error}
        </p>
      )}
      {revert && (
        <section
          class="confirm"
          role="dialog"
          aria-labelledby="revert-title"
          aria-modal="false"
          onKeyDown={(e) => e.key === 'Escape' && setRevert(null)}
        >
          <h2 id="revert-title" ref={dialogTitle} tabIndex={-1}>
            Revert the RPC URLs to {revert.entry.commit.sha.slice(0, 7)}?
          </h2>
          <p>This changes the current RPC URLs as follows:</p>
          <Diff
            lines={rpcDiff(urlsOf(revert.current), urlsOf(revert.entry.version?.network ?? null))}
            label="Change the revert makes"
          />
          <div class="actions">
            <button
              type="button"
              class="primary"
              onClick={() => void applyRevert()}
              disabled={
                applying || !changed(rpcDiff(urlsOf(revert.current), urlsOf(revert.entry.version?.network ?? null)))
              }
            >
              Apply revert
            </button>
            <button type="button" onClick={() => setRevert(null)}>
              Cancel
            </button>
          </div>
        </section>
      )}
      {entries === null && !error && <p role="status">Loading history...</p>}
      {entries?.length === 0 && <p>No commits touch this network's file yet.</p>}
      <ol class="commits">
        {entries?.map((entry) => (
          <li key={entry.commit.sha}>
            <h2>
              <code>{entry.commit.sha.slice(0, 7)}</code> {entry.commit.message}
            </h2>
            <p class="meta">
              {entry.commit.actor ?? `${entry.commit.author} <${entry.commit.email}>`},{' '}
              <time dateTime={entry.commit.date}>{new Date(entry.commit.date).toLocaleString()}</time>
            </p>
            {entry.problem && <p class="problem">{entry.problem}</p>}
            {entry.version?.previous_problem && <p class="problem">{entry.version.previous_problem}</p>}
            {entry.version?.network_problem && <p class="problem">{entry.version.network_problem}</p>}
            {entry.version && (
              <Diff
                lines={rpcDiff(urlsOf(entry.version.previous), urlsOf(entry.version.network))}
                label={`Change made by ${entry.commit.sha.slice(0, 7)}`}
              />
            )}
            {mayWrite && entry.version?.network && (
              <button
                type="button"
                onClick={() => void askRevert(entry)}
                aria-label={`Revert to ${entry.commit.sha.slice(0, 7)}`}
              >
                Revert
              </button>
            )}
          </li>
        ))}
      </ol>
      <Pager page={page} pages={pages} onPage={setPage} labels={['Newer', 'Older']} />
    </>
  );
}
