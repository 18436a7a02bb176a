/**
 * "Add a network": a chain picked from the registry's search, the new id (`evm:<short name>` by
 * default) and its confirmations; Check runs the dry run and shows each candidate URL's verdict;
 * Save (Propose, where every change is a proposal) sends the URLs ticked and lands on the new
 * network's page. The server's errors show at their fields by pointer, the rest above the form.
 */
import { useState } from 'preact/hooks';
import { ApiError, type Api, type Network, type OpenedProposal } from '../state/api.js';
import { createBody, createNetwork, planNetwork, suggestedId, type ChainMatch, type Planned } from '../state/adding.js';
import { ReadOnlyNote } from '../layout.js';
import { ChainSearch } from './chain-search.js';
import { Verdicts } from './add-verdicts.js';
import { NoticeBar, type Notice } from './network-view.js';

/** Field key -> the server's messages: `id`, `confirmations`, or `form` for anything else. */
type Problems = Record<string, string[]>;

function problemsOf(err: ApiError): Problems {
  const problems: Problems = {};
  if (err.code === 'INVALID_ID') return { id: [err.message] };
  for (const { pointer, message } of err.details) {
    const key = pointer === '/id' ? 'id' : pointer === '/required_confirmations' ? 'confirmations' : 'form';
    (problems[key] ??= []).push(message);
  }
  return problems;
}

export function AddNetworkPage({ api, mayAdd, proposes }: { api: Api; mayAdd: boolean; proposes: boolean }) {
  const [chain, setChain] = useState<ChainMatch | null>(null);
  const [id, setId] = useState('');
  const [confirmations, setConfirmations] = useState('');
  const [allowHttp, setAllowHttp] = useState(false);
  const [planned, setPlanned] = useState<Planned | null>(null);
  const [ticked, setTicked] = useState<Set<string>>(new Set());
  const [problems, setProblems] = useState<Problems>({});
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);

  if (!mayAdd) {
    return (
      <>
        <h1>Add a network</h1>
        <ReadOnlyNote />
      </>
    );
  }
  // A change to the form makes the last check stale: Save needs a new one.
  const edit = (apply: () => void): void => {
    apply();
    setPlanned(null);
    setProblems({});
    setNotice(null);
  };
  const pick = (next: ChainMatch): void => edit(() => (setChain(next), setId(suggestedId(next))));
  const form = chain && { chainId: chain.chain_id, id, confirmations, allowHttp };
  const failed = (verb: string, err: unknown): void => {
    if (err instanceof ApiError) {
      setProblems(problemsOf(err));
      setNotice({ kind: 'error', text: `${verb}: ${err.message}` });
    } else setNotice({ kind: 'error', text: `${verb}: ${err instanceof Error ? err.message : String(err)}` });
  };
  const check = async (): Promise<void> => {
    if (!form) return;
    setBusy(true);
    setProblems({});
    setNotice(null);
    try {
      const plan = await planNetwork(api, createBody(form));
      setPlanned(plan);
      setTicked(new Set(plan.candidates.filter((c) => c.chosen).map((c) => c.url)));
    } catch (err) {
      setPlanned(null);
      failed('Not checked', err);
    } finally {
      setBusy(false);
    }
  };
  const save = async (e: Event): Promise<void> => {
    e.preventDefault();
    if (!form || !planned) return void (await check());
    setBusy(true);
    setNotice(null);
    // The URLs ticked, in the check's order: the server probes them again and writes those still fine.
    const urls = planned.candidates.filter((c) => ticked.has(c.url)).map((c) => c.url);
    try {
      const { data } = await createNetwork(api, createBody(form, urls), proposes);
      if ('proposal' in data) {
        const { number, url, updated } = (data as { proposal: OpenedProposal }).proposal;
        setNotice({
          kind: 'saved',
          text: `Proposed: pull request #${number} ${updated ? 'updated' : 'opened'}.`,
          link: url,
        });
      } else location.hash = `#/networks/${encodeURIComponent((data as Network).id)}`;
    } catch (err) {
      failed(proposes ? 'Not proposed' : 'Not saved', err);
    } finally {
      setBusy(false);
    }
  };

  const action = proposes ? 'Propose' : 'Save';
  return (
    <>
      <nav class="crumbs" aria-label="Breadcrumb">
        <a href="#/">Networks</a> / <span aria-current="page">Add a network</span>
      </nav>
      <h1>Add a network</h1>
      <p>From the chain registry: every RPC URL is asked its chain and head before anything is written.</p>
      <ChainSearch api={api} onPick={pick} />
      {notice && <NoticeBar notice={notice} onReload={() => undefined} />}
      {chain && (
        <form onSubmit={save} noValidate class="add-form">
          <p role="status">
            Picked: {chain.name} (chain {chain.chain_id})
          </p>
          <Problem id="form-problem" messages={problems.form} />
          <label for="new-id">Network id</label>
          <input
            id="new-id"
            type="text"
            spellcheck={false}
            autocomplete="off"
            value={id}
            aria-invalid={problems.id ? true : undefined}
            aria-describedby={problems.id ? 'new-id-problem' : undefined}
            onInput={(e) => edit(() => setId(e.currentTarget.value))}
          />
          <Problem id="new-id-problem" messages={problems.id} />
          <label for="confirmations">Required confirmations</label>
          <input
            id="confirmations"
            type="text"
            inputMode="numeric"
            placeholder="blank: the server's default"
            value={confirmations}
            aria-invalid={problems.confirmations ? true : undefined}
            aria-describedby={problems.confirmations ? 'confirmations-problem' : undefined}
            onInput={(e) => edit(() => setConfirmations(e.currentTarget.value))}
          />
          <Problem id="confirmations-problem" messages={problems.confirmations} />
          <label class="check">
            <input
              type="checkbox"
              checked={allowHttp}
              onChange={(e) => edit(() => setAllowHttp(e.currentTarget.checked))}
            />
            Allow plain http:// URLs
          </label>
          {planned && (
            <Verdicts
              planned={planned}
              ticked={ticked}
              disabled={busy}
              onTick={(url, on) => setTicked((t) => new Set([...t].filter((u) => u !== url).concat(on ? [url] : [])))}
            />
          )}
          <div class="actions">
            <button type="button" disabled={busy || id.trim() === ''} onClick={() => void check()}>
              {busy && !planned ? 'Checking...' : 'Check'}
            </button>
            <button type="submit" class="primary" disabled={busy || !planned || ticked.size === 0}>
              {busy && planned ? `${action === 'Save' ? 'Saving' : 'Proposing'}...` : action}
            </button>
          </div>
          {planned && ticked.size === 0 && (
            <p role="note">Tick at least one URL whose verdict is ok to {action.toLowerCase()}.</p>
          )}
        </form>
      )}
    </>
  );
}

function Problem({ id, messages }: { id: string; messages: string[] | undefined }) {
  if (!messages || messages.length === 0) return null;
  return (
    <p id={id} role="alert" class="problem">
      {messages.join(' ')}
    </p>
  );
}
