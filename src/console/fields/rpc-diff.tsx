/**
 * The difference between two RPC URL lists, as the lines an operator reads before applying it, and
 * its view: a list a screen reader reads line by line, each line saying what it is.
 */
import type { RpcUrl } from '../state/api.js';

export interface DiffLine {
  kind: 'added' | 'removed' | 'kept';
  text: string;
}

const lineOf = (e: RpcUrl): string => `${e.url} (weight ${e.weight})`;

/** Removed entries first, then the new list in its order with each entry marked added or kept. */
export function rpcDiff(before: RpcUrl[], after: RpcUrl[]): DiffLine[] {
  const old = new Set(before.map(lineOf));
  const next = new Set(after.map(lineOf));
  return [
    ...before.filter((e) => !next.has(lineOf(e))).map((e) => ({ kind: 'removed' as const, text: lineOf(e) })),
    ...after.map((e) => ({ kind: old.has(lineOf(e)) ? ('kept' as const) : ('added' as const), text: lineOf(e) })),
  ];
}

export function changed(lines: DiffLine[]): boolean {
  return lines.some((l) => l.kind !== 'kept');
}

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
