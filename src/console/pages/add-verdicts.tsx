/**
 * What a Check (the dry run) answered: the registry entry used (source, entry, date), the fields
 * that would be written, why it would not be written as it stands, and each candidate URL with its
 * verdict. The server's chosen URLs start ticked; a URL whose verdict is `ok` may be ticked or
 * unticked, any other cannot be (the server would leave it out again).
 */
import type { Candidate, Planned } from '../state/adding.js';
import { Fields } from './network-view.js';

const dash = (value: number | null, unit = ''): string => (value === null ? '' : `${value}${unit}`);

export function Verdicts({
  planned,
  ticked,
  disabled,
  onTick,
}: {
  planned: Planned;
  ticked: Set<string>;
  disabled: boolean;
  onTick(url: string, on: boolean): void;
}) {
  const { registry, network, candidates, problems } = planned;
  const { rpc_urls: _urls, ...fields } = network;
  return (
    <section aria-labelledby="check-title">
      <h2 id="check-title">What the check found</h2>
      {registry ? (
        <dl class="fields" aria-label="Registry entry">
          <div>
            <dt>Registry</dt>
            <dd>{registry.source}</dd>
          </div>
          <div>
            <dt>Entry</dt>
            <dd>{registry.entry}</dd>
          </div>
          <div>
            <dt>Date</dt>
            <dd>{registry.date}</dd>
          </div>
        </dl>
      ) : (
        <p>No registry entry was used.</p>
      )}
      <h3>Fields to write</h3>
      <Fields network={{ ...fields, id: '', rpc_urls: [] }} />
      {problems.length > 0 && (
        <div role="alert" class="notice problem">
          <span>It would not be written as it stands:</span>
          <ul>
            {problems.map((p, i) => (
              <li key={i}>{p.message}</li>
            ))}
          </ul>
        </div>
      )}
      <div class="table-wrap">
        <table aria-label="Candidate RPC URLs">
          <thead>
            <tr>
              <th scope="col">Use</th>
              <th scope="col">RPC URL</th>
              <th scope="col">Verdict</th>
              <th scope="col">Chain ID</th>
              <th scope="col">Head</th>
              <th scope="col">Latency</th>
              <th scope="col">Why not kept</th>
            </tr>
          </thead>
          <tbody>
            {candidates.map((c: Candidate, i) => (
              <tr key={c.url}>
                <td>
                  <input
                    type="checkbox"
                    id={`use-${i}`}
                    aria-label={`Use ${c.url}`}
                    checked={ticked.has(c.url)}
                    disabled={disabled || c.status !== 'ok'}
                    onChange={(e) => onTick(c.url, e.currentTarget.checked)}
                  />
                </td>
                <td class="url-cell">{c.url}</td>
                <td>{c.status}</td>
                <td>{dash(c.chain_id)}</td>
                <td>{dash(c.head)}</td>
                <td>{dash(c.latency_ms, ' ms')}</td>
                <td class="reason">{c.reason ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
