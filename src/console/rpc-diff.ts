/** The difference between two RPC URL lists, as the lines an operator reads before applying it. */
import type { RpcUrl } from './api.js';

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
