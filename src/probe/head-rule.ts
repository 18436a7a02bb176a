/**
 * A network's head, by a rule no one URL can move. Before, the best head of a network's URLs was its
 * head, so one URL answering 2^53-1 made every honest URL `lagging` (and a disabled URL, needing `ok`,
 * never came back). Now:
 *   1. A head above what any chain could have reached (a thousand blocks a second since 1970: the
 *      clock in milliseconds) is no head: that URL is `bad_response`.
 *   2. The network's head is the upper median of the heads left (the middle one; of an even count the
 *      higher middle one): with three URLs or more, one URL cannot move it past the others' heads.
 *   3. A head more than the family's bound above that median is not believed (`bad_response`): a
 *      head most of its URLs do not share. With two URLs there is no majority: the upper median is
 *      the higher head, which is believed unless rule 1 refuses it, so a stuck one of two is `lagging`.
 *   4. A believed URL more than the bound behind the highest believed head is `lagging`.
 * `wrong_chain` URLs take no part: their head is another chain's.
 */
import type { UrlHealth } from './chain-probe.js';

/** Heads behind the network's head before a URL is `lagging`: about a minute of blocks (12 s, 0.4 s and 5 s per block). */
export const LAG_BOUND: Record<string, number> = { evm: 5, solana: 150, stellar: 12 };

/** `results` (one network's, in order) with each head judged against the others' by the rule above. */
export function judgeHeads(results: UrlHealth[], bound: number, now = Date.now()): UrlHealth[] {
  const sane = results.map((r): UrlHealth => {
    if (r.status !== 'ok' || r.head === null || r.head <= now) return r;
    return {
      ...r,
      status: 'bad_response',
      error: `its head ${r.head} is more than any chain has reached (a thousand blocks a second since 1970: ${now})`,
    };
  });
  const heads = sane
    .filter((r) => r.status === 'ok' && r.head !== null)
    .map((r) => r.head as number)
    .sort((a, b) => a - b);
  const median = heads[Math.floor(heads.length / 2)];
  if (median === undefined) return sane;
  const best = Math.max(...heads.filter((head) => head <= median + bound));
  return sane.map((r): UrlHealth => {
    if (r.head === null || r.status !== 'ok') return r;
    if (r.head > median + bound) {
      const ahead = r.head - median;
      const error =
        `its head ${r.head} is ${ahead} ahead of the median head of this network's URLs, ${median} (more than ${bound}): ` +
        'a head most of them do not share is not believed';
      return { ...r, status: 'bad_response', error };
    }
    const lag = best - r.head;
    if (lag > bound)
      return { ...r, lag, status: 'lagging', error: `${lag} behind the network's head ${best} (more than ${bound})` };
    return { ...r, lag };
  });
}
