/**
 * An evm chain's average block time, measured rather than guessed: the timestamps of the block at
 * the head a probe just read and of the block `span` below it, asked of one URL in one batch. Block
 * timestamps are whole seconds, so the span is long (up to a thousand blocks) to keep the error small.
 */
import { CallFailed, rpcBatch, type CallOptions } from './rpc-call.js';

export const BLOCK_TIME_SPAN = 1000;

/** Milliseconds per block between `head - span` and `head` at `url`; null with why when it cannot be said. */
export async function measureBlockTime(
  url: string,
  head: number,
  options: CallOptions,
  span = BLOCK_TIME_SPAN,
): Promise<{ ms: number | null; why: string | null }> {
  const n = Math.min(span, head);
  if (n < 10) return { ms: null, why: `the chain has only ${head} blocks` };
  const block = (number: number) => ({ method: 'eth_getBlockByNumber', params: [`0x${number.toString(16)}`, false] });
  try {
    const [top, bottom] = await rpcBatch(url, [block(head), block(head - n)], options);
    const seconds = [top, bottom].map((b) =>
      Number.parseInt(String((b as { timestamp?: unknown } | null)?.timestamp), 16),
    );
    const [t1, t0] = seconds as [number, number];
    if (!Number.isSafeInteger(t1) || !Number.isSafeInteger(t0) || t1 <= t0)
      return { ms: null, why: 'the block timestamps it answered do not rise' };
    return { ms: Math.max(1, Math.round(((t1 - t0) * 1000) / n)), why: null };
  } catch (err) {
    return { ms: null, why: err instanceof CallFailed ? err.message : String(err) };
  }
}
