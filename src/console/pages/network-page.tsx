/**
 * One network: its fields, and its RPC URLs as a form. Problems show at the field while typing
 * (the PATCH schema compiled into the page) and after Save (the server's details). Save sends the
 * ETag the page was opened with in If-Match, so a concurrent change is never overwritten: a 412
 * says so and offers Reload. A change arriving on the change stream replaces the page when
 * nothing is being edited, and is announced (not applied) when something is. A token that may only
 * read sees the URLs, not the means to change them. Where a change is a proposal (a propose token, or
 * GIT_PROPOSE_ONLY) the button is Propose: the answer links to the pull request, and nothing served moves.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type Api, type Network } from '../state/api.js';
import { bodyOf, checkRows, hasProblems, problemsOf, type Problems, type Row } from '../fields/field-problems.js';
import type { Subscribe } from '../state/live.js';
import { ReadOnlyNote } from '../layout.js';
import { Diff, rpcDiff } from '../fields/rpc-diff.js';
import { UrlFields } from '../fields/url-fields.js';
import { useUrlHealth } from '../state/server-state.js';
import { Fields, NoticeBar, type Notice } from './network-view.js';
import { NetworkProposals } from './proposals.js';
import { NetworkOnRelayers } from './relayers.js';

const rowsOf = (network: Network): Row[] =>
  network.rpc_urls.map((e) => ({ url: e.url, weight: String(e.weight), ...(e.secret ? { secret: true } : {}) }));
const same = (a: Row[], b: Row[]): boolean => JSON.stringify(a) === JSON.stringify(b);

/** How this page's changes are made: `proposes`, as pull requests; `proposals`, whether the server lists them. */
interface Changes {
  proposes?: boolean;
  proposals?: boolean;
}

export function NetworkPage(
  props: {
    id: string;
    api: Api;
    subscribe: Subscribe;
    probing: boolean;
    mayWrite: boolean;
    relayers?: boolean;
  } & Changes,
) {
  const { id, api, subscribe, probing, mayWrite, relayers = false, proposes = false, proposals = false } = props;
  const [proposed, setProposed] = useState(0);
  const [opened, setOpened] = useState<{ network: Network; etag: string } | null>(null);
  const [rows, setRows] = useState<Row[]>([]);
  const [edited, setEdited] = useState(false);
  const [serverProblems, setServerProblems] = useState<Problems>({});
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  // What the change-stream listener needs of the latest render; it is subscribed once per network.
  const latest = useRef({ etag: '', dirty: false, saving: false, seenWhileSaving: null as string | null });
  const opens = useRef(0);
  const path = `/api/v1/networks/${encodeURIComponent(id)}`;
  const health = useUrlHealth(api, subscribe, id, probing);

  const open = async (): Promise<void> => {
    const mine = ++opens.current; // two changes in a row: only the later answer is shown
    try {
      const { data, etag } = await api.get<Network>(path);
      if (mine !== opens.current) return;
      setOpened({ network: data, etag: etag ?? '' });
      setRows(rowsOf(data));
      setEdited(false);
      setServerProblems({});
      setLoadError(null);
    } catch (err) {
      if (mine !== opens.current) return;
      const message = err instanceof ApiError ? err.message : String(err);
      // A failed refresh keeps the form; only a page that never loaded shows the error instead.
      if (latest.current.etag === '') setLoadError(message);
      else setNotice({ kind: 'error', text: `Could not load the new version: ${message}` });
    }
  };
  /** A change on the server: shown at once when nothing is being edited, announced when something is. */
  const changedOnServer = (etag: string | undefined): void => {
    if (etag !== undefined && etag === latest.current.etag) return; // our own save
    if (latest.current.dirty) {
      setNotice({
        kind: 'changed',
        text: 'This network changed on the server since you opened it. Your unsaved edit is kept; Reload shows the new version and discards your edit.',
      });
    } else {
      void open().then(() =>
        setNotice({ kind: 'info', text: 'This network changed on the server; the new version is shown.' }),
      );
    }
  };
  useEffect(() => {
    void open();
    return subscribe((event) => {
      if (event.data.id !== id && event.kind !== 'reset') return;
      if (event.kind === 'deleted')
        return setNotice({ kind: 'changed', text: 'This network was deleted on the server.' });
      if (!['added', 'modified', 'reset'].includes(event.kind)) return;
      // While saving, our own write's event may come before its answer: judged once the answer is in.
      if (latest.current.saving) return void (latest.current.seenWhileSaving = event.data.etag ?? '');
      changedOnServer(event.data.etag);
    });
  }, [id]);
  const dirty = opened !== null && !same(rows, rowsOf(opened.network));
  // A finding belongs to the URL the server has at that index: shown at a row that still holds it.
  const rowHealth = new Map(
    [...health].filter(([i]) => rows[i] !== undefined && rows[i]?.url.trim() === opened?.network.rpc_urls[i]?.url),
  );
  latest.current = { ...latest.current, etag: opened?.etag ?? '', dirty };
  const clientProblems = edited ? checkRows(rows) : {};
  const problems: Problems = { ...clientProblems };
  for (const [key, list] of Object.entries(serverProblems)) problems[key] = [...(problems[key] ?? []), ...list];

  const change = (next: Row[]): void => {
    setRows(next);
    setEdited(true);
    setServerProblems({});
    // What was said about the last Save is stale once the form changes; a change on the server is not.
    setNotice((n) => (n?.kind === 'conflict' || n?.kind === 'changed' ? n : null));
  };
  const reload = (): void => {
    setNotice(null);
    void open();
  };
  const save = async (e: Event): Promise<void> => {
    e.preventDefault();
    if (!opened || !mayWrite) return;
    setEdited(true);
    const found = checkRows(rows);
    if (hasProblems(found)) {
      setNotice({ kind: 'error', text: 'Not saved: fix the fields marked below.' });
      return;
    }
    if (!opened.etag) {
      setNotice({
        kind: 'error',
        text: 'Not saved: the server sent no ETag for this network, so a concurrent change could not be detected. Reload and try again.',
      });
      return;
    }
    setBusy(true);
    latest.current = { ...latest.current, saving: true, seenWhileSaving: null };
    let saved: string | null = null;
    try {
      if (proposes) {
        const { data, rpc_warnings } = await api.propose(id, bodyOf(rows), opened.etag);
        const { number, url, updated } = data.proposal;
        const warned = (rpc_warnings ?? []).map((w) => `${w.url}: ${w.status}`).join('; ');
        // Nothing served changed: the form shows the served version again, the change is in the pull request.
        setRows(rowsOf(opened.network));
        setEdited(false);
        setProposed((n) => n + 1);
        setNotice({
          kind: 'saved',
          text: `Proposed: pull request #${number} ${updated ? 'updated' : 'opened'}${warned ? `, with RPC warnings: ${warned}` : ''}.`,
          link: url,
        });
        return;
      }
      const { data, etag, rpc_warnings } = await api.patch(id, bodyOf(rows), opened.etag);
      saved = etag ?? '';
      setOpened({ network: data, etag: saved });
      setRows(rowsOf(data));
      setEdited(false);
      const warned = (rpc_warnings ?? []).map((w) => `${w.url}: ${w.status}${w.error ? ` (${w.error})` : ''}`);
      setNotice({
        kind: 'saved',
        text: warned.length > 0 ? `Saved, with RPC warnings: ${warned.join('; ')}` : 'Saved.',
      });
    } catch (err) {
      if (err instanceof ApiError && err.status === 412) {
        setNotice({
          kind: 'conflict',
          text: 'Not saved: this network changed since you opened it. Reload to see the current version, then make your edit again.',
        });
      } else if (err instanceof ApiError && err.details.length > 0) {
        setServerProblems(problemsOf(err.details));
        setNotice({ kind: 'error', text: `Not saved: ${err.message}` });
      } else {
        setNotice({ kind: 'error', text: `Not saved: ${err instanceof Error ? err.message : String(err)}` });
      }
    } finally {
      const seen = latest.current.seenWhileSaving;
      latest.current = {
        ...latest.current,
        saving: false,
        seenWhileSaving: null,
        ...(saved !== null ? { etag: saved, dirty: false } : {}),
      };
      setBusy(false);
      // A change that was not our own came while saving (after our write): show it now.
      if (seen !== null && seen !== saved && saved !== null) changedOnServer(seen);
    }
  };

  if (loadError) {
    return (
      <>
        <h1>{id}</h1>
        <p role="alert" class="problem">
          {loadError}
        </p>
        <a href="#/">Back to all networks</a>
      </>
    );
  }
  if (!opened) return <p role="status">Loading {id}...</p>;
  return (
    <>
      <nav class="crumbs" aria-label="Breadcrumb">
        <a href="#/">Networks</a> / <span aria-current="page">{id}</span> /{' '}
        <a href={`#/networks/${encodeURIComponent(id)}/history`}>History</a>
      </nav>
      <h1>{id}</h1>
      <Fields network={opened.network} />
      <NetworkOnRelayers id={id} api={api} subscribe={subscribe} enabled={relayers} />
      {notice && <NoticeBar notice={notice} onReload={reload} />}
      <form onSubmit={save} noValidate>
        <UrlFields rows={rows} problems={problems} health={rowHealth} disabled={busy || !mayWrite} onChange={change} />
        {dirty && !hasProblems(clientProblems) && (
          <section aria-labelledby="pending-title">
            <h2 id="pending-title">{proposes ? 'Propose' : 'Save'} will change the RPC URLs as follows</h2>
            <Diff
              lines={rpcDiff(
                opened.network.rpc_urls,
                bodyOf(rows).rpc_urls.map((e) => ({ url: e.url, weight: Number(e.weight) })),
              )}
              label={proposes ? 'Changes to propose' : 'Changes to save'}
            />
          </section>
        )}
        {mayWrite ? (
          <div class="actions">
            <button type="submit" class="primary" disabled={busy || !dirty}>
              {busy ? (proposes ? 'Proposing...' : 'Saving...') : proposes ? 'Propose' : 'Save'}
            </button>
            {dirty && (
              <button type="button" onClick={() => change(rowsOf(opened.network))}>
                Undo changes
              </button>
            )}
          </div>
        ) : (
          <ReadOnlyNote />
        )}
      </form>
      <NetworkProposals id={id} api={api} enabled={proposals} refresh={proposed} />
    </>
  );
}
