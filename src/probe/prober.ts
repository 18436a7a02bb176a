/**
 * Probes every URL of a network, at most `concurrency` calls at a time across everything this
 * prober does (or within the slots a caller brings: each PATCH its own), and judges each head
 * against the others' (head-rule.ts: the network's head is their median, so no one URL moves it).
 */
import { isProbed, probeUrl, type Claimed, type UrlHealth } from './chain-probe.js';
import { judgeHeads, LAG_BOUND } from './head-rule.js';
import { measureBlockTime } from './block-time.js';
import { keepAliveAgents, type CallOptions } from './rpc-call.js';
import { Slots } from './slots.js';

export interface ProberOptions extends CallOptions {
  /** Probes in flight at once, over all networks. */
  concurrency: number;
}

export const DEFAULT_PROBER: ProberOptions = {
  timeoutMs: 5000,
  maxBytes: 64 * 1024,
  blockPrivate: false,
  concurrency: 32,
};

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
  async probeNetwork(
    family: string,
    urls: string[],
    claimed: Claimed,
    slots: Slots = this.slots,
  ): Promise<UrlHealth[]> {
    const results = await Promise.all(urls.map((url) => slots.run(() => probeUrl(family, url, claimed, this.call))));
    return judgeHeads(results, LAG_BOUND[family] ?? 0);
  }

  /** An evm chain's block time measured at `url` below `head` (block-time.ts), in one of the prober's slots. */
  blockTime(url: string, head: number): Promise<{ ms: number | null; why: string | null }> {
    return this.slots.run(() => measureBlockTime(url, head, this.call));
  }
}
