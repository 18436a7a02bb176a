/**
 * Probes every URL of a network, at most `concurrency` calls at a time across everything this
 * prober does (or within the slots a caller brings: each PATCH its own), and marks a URL `lagging` when its head is more than the family's bound behind the
 * best URL of the same network (a URL that answers for the wrong chain does not count as best).
 */
import { isProbed, probeUrl, type Claimed, type UrlHealth } from './chain-probe.js';
import { keepAliveAgents, type CallOptions } from './rpc-call.js';
import { Slots } from './slots.js';

export interface ProberOptions extends CallOptions {
  /** Probes in flight at once, over all networks. */
  concurrency: number;
}

export const DEFAULT_PROBER: ProberOptions = { timeoutMs: 5000, maxBytes: 64 * 1024, blockPrivate: false, concurrency: 32 };

/** Heads behind the best URL before a URL is `lagging`: about a minute of blocks (12 s, 0.4 s and 5 s per block). */
const LAG_BOUND: Record<string, number> = { evm: 5, solana: 150, stellar: 12 };

export class Prober {
  private readonly call: CallOptions;
  private readonly slots: Slots;

  constructor(options: ProberOptions = DEFAULT_PROBER) {
    this.call = { ...options, agents: keepAliveAgents() };
    this.slots = new Slots(options.concurrency);
  }

  /** Closes the kept-alive connections; a call in flight ends as unreachable. */
  close(): void {
    this.call.agents?.http.destroy();
    this.call.agents?.https.destroy();
  }

  /** Whether networks of `family` are probed at all. */
  probes(family: string): boolean {
    return isProbed(family);
  }

  /** Every URL of one network, in the order given; its calls take `slots` (the prober's own unless given). */
  async probeNetwork(family: string, urls: string[], claimed: Claimed, slots: Slots = this.slots): Promise<UrlHealth[]> {
    const results = await Promise.all(urls.map((url) => slots.run(() => probeUrl(family, url, claimed, this.call))));
    const heads = results.filter((r) => r.status === 'ok' && r.head !== null).map((r) => r.head as number);
    if (heads.length === 0) return results;
    const best = Math.max(...heads);
    const bound = LAG_BOUND[family] ?? 0;
    return results.map((r) => {
      if (r.head === null || r.status === 'wrong_chain') return r;
      const lag = best - r.head;
      if (r.status === 'ok' && lag > bound) return { ...r, lag, status: 'lagging', error: `${lag} behind the best URL of this network (more than ${bound})` };
      return { ...r, lag };
    });
  }
}
