/** A diff of RPC URL lists as a list a screen reader reads line by line, each line saying what it is. */
import { changed, type DiffLine } from './rpc-diff.js';

export function Diff({ lines, label }: { lines: DiffLine[]; label: string }) {
  if (!changed(lines)) return <p class="diff-none">No change to the RPC URLs.</p>;
  return (
    <ul class="diff" aria-label={label}>
      {lines.map((l, i) => (
        <li key={i} class={l.kind}>
          <span class="sign" aria-hidden="true">
            {l.kind === 'added' ? '+' : l.kind === 'removed' ? '-' : ' '}
          </span>
          <span class="visually-hidden">{l.kind === 'kept' ? '' : `${l.kind}: `}</span>
          {l.text}
        </li>
      ))}
    </ul>
  );
}
