/**
 * The relayers kept in sync (RELAYER_SYNC_FILE), shown to admins (their routes need admin): per
 * relayer its state, the lease's holder, its last pass, its counts with the time they were last
 * true, every network not in sync with why, its latest findings with the relayer's value and
 * netcfg's side by side, the networks only it has, and "Sync now". On a network's page, that
 * network's state on every relayer.
 */
import { useState } from 'preact/hooks';
import { ApiError, type Api } from '../state/api.js';
import type { Subscribe } from '../state/live.js';
import { useRelayers, type RelayerStatus } from '../state/server-state.js';

const LATEST = 10;
const when = (iso: string | null): string => (iso === null ? 'never' : new Date(iso).toLocaleString());
const value = (v: unknown): string => (v === null || v === undefined ? '(none)' : JSON.stringify(v));

/** Why a network is not in sync on a relayer, in words. */
function why(network: RelayerStatus['networks'][number]): string {
  if (network.state === 'drifted')
    return `drifted: the relayer holds ${value(network.relayer?.rpc_urls)}; netcfg has ${value(network.netcfg?.rpc_urls)}`;
  return `${network.state}: ${network.error ?? ''}`;
}

function counts(r: RelayerStatus): string {
  const c = r.counts;
  const text = `${c.in_sync} in sync, ${c.drifted} drifted, ${c.stale} stale, ${c.missing} missing, ${c.failing} failing, ${c.extra} extra`;
  return r.counts_at === null ? `${text} (not yet compared)` : `${text}, as of ${when(r.counts_at)}`;
}

function SyncNow({ api, name }: { api: Api; name: string }) {
  const [said, setSaid] = useState<{ text: string; problem: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const run = (): void => {
    setBusy(true);
    api
      .post<RelayerStatus>(`/api/v1/relayers/${encodeURIComponent(name)}/sync`)
      .then(
        ({ data }) => setSaid({ text: `Pass ended: ${data.state} (${counts(data)})`, problem: false }),
        (err: unknown) => setSaid({ text: err instanceof ApiError ? err.message : String(err), problem: true }),
      )
      .finally(() => setBusy(false));
  };
  return (
    <p>
      <button type="button" onClick={run} disabled={busy} aria-label={`Sync ${name} now`}>
        {busy ? 'Syncing...' : 'Sync now'}
      </button>
      {said && (
        <span role={said.problem ? 'alert' : 'status'} class={said.problem ? 'problem' : ''}>
          {' '}
          {said.text}
        </span>
      )}
    </p>
  );
}

function Relayer({ api, r }: { api: Api; r: RelayerStatus }) {
  const latest = r.findings.slice(0, LATEST);
  return (
    <section class="banner" aria-label={`Relayer ${r.name}`}>
      <h3>{r.name}</h3>
      <dl>
        <dt>State</dt>
        <dd>
          {r.state}
          {r.self_heal ? '' : ' (self_heal off: drift is reported, not set back)'}
        </dd>
        {r.lease && (
          <>
            <dt>Lease holder</dt>
            <dd>
              {r.lease.holder ?? 'none'} (this replica: {r.lease.this_replica})
            </dd>
          </>
        )}
        <dt>Last pass</dt>
        <dd>{when(r.last_pass_at)}</dd>
        <dt>Counts</dt>
        <dd>{counts(r)}</dd>
      </dl>
      <SyncNow api={api} name={r.name} />
      {latest.length > 0 && (
        <div class="table-wrap">
          <table aria-label={`Latest findings on ${r.name}`}>
            <thead>
              <tr>
                <th scope="col">Network</th>
                <th scope="col">Kind</th>
                <th scope="col">Fields</th>
                <th scope="col">Relayer holds</th>
                <th scope="col">netcfg has</th>
                <th scope="col">Found</th>
                <th scope="col">Resolved</th>
              </tr>
            </thead>
            <tbody>
              {latest.map((f, i) => (
                <tr key={i}>
                  <td>{f.network ?? '(the relayer)'}</td>
                  <td>{f.kind}</td>
                  <td>{f.fields.join(', ')}</td>
                  <td>
                    <code>{value(f.relayer_value)}</code>
                  </td>
                  <td>
                    <code>{value(f.netcfg_value)}</code>
                  </td>
                  <td>{when(f.found_at)}</td>
                  <td>{f.resolved_at === null ? 'open' : when(f.resolved_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {r.extra.length > 0 && (
        <p aria-label={`Only on ${r.name}`}>
          Only on {r.name} (left alone): {r.extra.join(', ')}
        </p>
      )}
    </section>
  );
}

export function Relayers({ api, subscribe, enabled }: { api: Api; subscribe: Subscribe; enabled: boolean }) {
  const relayers = useRelayers(api, subscribe, enabled);
  if (!relayers) return null;
  return (
    <>
      <section
        class={relayers.every((r) => r.state === 'in_sync' || r.state === 'standby') ? 'banner' : 'banner problem'}
        aria-labelledby="relayers-title"
      >
        <h2 id="relayers-title">Relayers kept in sync</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Relayer</th>
              <th scope="col">State</th>
              <th scope="col">In sync</th>
              <th scope="col">Drifted</th>
              <th scope="col">Stale</th>
              <th scope="col">Missing</th>
              <th scope="col">Failing</th>
            </tr>
          </thead>
          <tbody>
            {relayers.map((r) => (
              <tr key={r.name}>
                <th scope="row">{r.name}</th>
                <td>{r.state}</td>
                <td>{r.counts.in_sync}</td>
                <td>{r.counts.drifted}</td>
                <td>{r.counts.stale}</td>
                <td>{r.counts.missing}</td>
                <td>{r.counts.failing}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {relayers.map(
          (r) =>
            (r.last_error !== null || r.networks.length > 0) && (
              <ul key={r.name} aria-label={`Not in sync on ${r.name}`}>
                {r.last_error && <li>{r.last_error}</li>}
                {r.networks.map((n) => (
                  <li key={n.id}>
                    <a href={`#/networks/${encodeURIComponent(n.id)}`}>{n.id}</a>: {why(n)}
                  </li>
                ))}
              </ul>
            ),
        )}
      </section>
      {relayers.map((r) => (
        <Relayer key={r.name} api={api} r={r} />
      ))}
    </>
  );
}

/** `id` matched by a glob of RELAYER_SYNC_FILE (`*` any run of characters). */
const inScope = (scope: string[] | null, id: string): boolean =>
  scope === null ||
  scope.some((g) =>
    new RegExp(
      `^${g
        .split('*')
        .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    ).test(id),
  );

/** One network's state on every relayer that takes it (its page). */
export function NetworkOnRelayers({
  id,
  api,
  subscribe,
  enabled,
}: {
  id: string;
  api: Api;
  subscribe: Subscribe;
  enabled: boolean;
}) {
  const relayers = useRelayers(api, subscribe, enabled)?.filter((r) => inScope(r.scope, id));
  if (!relayers || relayers.length === 0) return null;
  const stateOn = (r: RelayerStatus): string => {
    const n = r.networks.find((x) => x.id === id);
    if (n) return why(n);
    if (r.state === 'failing' || r.state === 'pending' || r.state === 'standby')
      return `unknown: ${r.name} is ${r.state}`;
    return `in sync, as of ${when(r.counts_at)}`;
  };
  return (
    <section aria-labelledby="on-relayers-title">
      <h2 id="on-relayers-title">On the relayers</h2>
      <ul aria-label={`${id} on the relayers`}>
        {relayers.map((r) => (
          <li key={r.name}>
            <strong>{r.name}</strong>: {stateOn(r)}
          </li>
        ))}
      </ul>
    </section>
  );
}
