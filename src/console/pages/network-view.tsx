/**
 * The network page's read-only parts: its fields other than rpc_urls, and the notice that says
 * what happened to a Save or to the network on the server (with Reload where the form is stale).
 */
import type { Network } from '../state/api.js';

export type Notice =
  | { kind: 'saved' | 'info'; text: string; link?: string }
  | { kind: 'conflict' | 'changed' | 'error'; text: string; link?: never };

export function Fields({ network }: { network: Network }) {
  const shown = Object.entries(network).filter(([key]) => key !== 'rpc_urls' && key !== 'id');
  return (
    <dl class="fields">
      {shown.map(([key, value]) => (
        <div key={key}>
          <dt>{key}</dt>
          <dd>
            {Array.isArray(value)
              ? value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ')
              : typeof value === 'object'
                ? JSON.stringify(value)
                : String(value)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function NoticeBar({ notice, onReload }: { notice: Notice; onReload: () => void }) {
  const alerting = notice.kind === 'conflict' || notice.kind === 'changed' || notice.kind === 'error';
  return (
    <div
      key={alerting ? 'alert' : 'status'}
      class={alerting ? 'notice problem' : 'notice'}
      role={alerting ? 'alert' : 'status'}
    >
      <span>{notice.text}</span>
      {notice.link && (
        <a href={notice.link} target="_blank" rel="noopener noreferrer">
          Open the pull request
        </a>
      )}
      {(notice.kind === 'conflict' || notice.kind === 'changed') && (
        <button type="button" onClick={onReload}>
          Reload
        </button>
      )}
    </div>
  );
}
