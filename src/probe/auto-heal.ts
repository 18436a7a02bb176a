/**
 * RPC_AUTO_DISABLE: a URL the live prober finds unreachable or on the wrong chain for N probes in
 * a row spanning T gets weight 0 through the ordinary write path, as `system:rpc-prober`, in a
 * commit that holds the evidence and a `Netcfg-Rpc-Auto` trailer with the weight it had; ok for N
 * probes over T, that weight is restored the same way. The trailer is the note: it survives a
 * restart and is what a second replica reads. Guards: never the last enabled URL, at most M changes
 * an hour, never a file that changed since the last verdict (If-Match) or is invalid, and never a
 * URL a person touched after the disable (history must show only the prober's commits since).
 */
import { createHash } from 'node:crypto';
import { SerialQueue } from '../serial-queue.js';
import type { NetworkProbe } from './live-prober.js';
import type { HealStore } from './heal-store.js';
import { healTrailer, type HealNote } from './heal-notes.js';

export interface HealOptions {
  /** RPC_AUTO_DISABLE_PROBES: verdicts in a row before acting. */
  probes: number;
  /** RPC_AUTO_DISABLE_MS: how long those verdicts must span, at least. */
  spanMs: number;
  /** RPC_AUTO_DISABLE_MAX_PER_HOUR: changes over all networks in any hour. */
  maxPerHour: number;
}

export const DEFAULT_HEAL: HealOptions = { probes: 3, spanMs: 300_000, maxPerHour: 10 };

interface Streak {
  url: string;
  bad: boolean;
  count: number;
  first: string;
  last: string;
  status: string;
  error: string | null;
  etag: string;
}

export interface AutoDisabled {
  at: string;
  reason: string;
}

export class AutoHeal {
  private readonly streaks = new Map<string, Streak>();
  /** `${id}#${index}` of each URL the prober disabled and has not restored, with when and why. */
  private readonly disabled = new Map<string, AutoDisabled>();
  private readonly recalled = new Set<string>();
  private readonly changes: number[] = [];
  private readonly tally = { disabled: 0, restored: 0, skipped: {} as Record<string, number> };
  private readonly acting = new SerialQueue();
  private closed = false;

  constructor(
    private readonly store: HealStore,
    private readonly options: HealOptions,
    private readonly log: { info(fields: object, message: string): void; warn(fields: object, message: string): void },
  ) {}

  /** One network's probe (LiveProber.onProbed): counts verdicts, and acts on one streak at a time. */
  heard(probe: NetworkProbe): void {
    if (this.closed) return;
    const network = this.store.network(probe.id);
    if (network === null) return;
    for (const result of probe.results) {
      const key = `${probe.id}#${result.index}`;
      const served = network.served[result.index];
      if (served === undefined || served.url !== result.url) continue; // the list moved since the probe began
      // After a restart, what the prober disabled before is read back from its commits, once per version.
      if (served.weight === 0 && !this.disabled.has(key) && !this.recalled.has(`${key} ${network.etag}`)) {
        this.recalled.add(`${key} ${network.etag}`);
        this.queue(() => this.recall(probe.id, result.index, network.written[result.index]));
      }
      const bad = result.status === 'unreachable' || result.status === 'wrong_chain';
      if (!bad && result.status !== 'ok') {
        this.streaks.delete(key);
        continue;
      }
      const before = this.streaks.get(key);
      // A file changed since the last verdict (by a person, another replica or this one) starts the count again.
      const same = before && before.url === result.url && before.bad === bad && before.etag === network.etag;
      const streak: Streak = same
        ? { ...before, count: before.count + 1, last: result.checked_at, status: result.status, error: result.error }
        : {
            url: result.url,
            bad,
            count: 1,
            first: result.checked_at,
            last: result.checked_at,
            status: result.status,
            error: result.error,
            etag: network.etag,
          };
      this.streaks.set(key, streak);
      const long =
        streak.count >= this.options.probes &&
        Date.parse(streak.last) - Date.parse(streak.first) >= this.options.spanMs;
      if (!long) continue;
      if (bad && served.weight > 0) this.queue(() => this.disable(probe.id, result.index, streak));
      if (!bad && served.weight === 0) this.queue(() => this.restore(probe.id, result.index, streak));
    }
  }

  /** What the prober disabled in network `id` and has not restored, by place in rpc_urls. */
  of(id: string): Map<number, AutoDisabled> {
    return new Map(
      [...this.disabled]
        .filter(([key]) => key.startsWith(`${id}#`))
        .map(([key, v]) => [Number(key.slice(id.length + 1)), v]),
    );
  }

  counts(): { disabled: number; restored: number; skipped: Record<string, number> } {
    return { disabled: this.tally.disabled, restored: this.tally.restored, skipped: { ...this.tally.skipped } };
  }

  disabledNow(): number {
    return this.disabled.size;
  }

  /** Resolves once the changes asked so far are done (tests, shutdown). */
  settled(): Promise<void> {
    return this.acting.settled();
  }

  /** Hears no more verdicts and resolves once the change under way is written (shutdown: before the store closes). */
  async close(): Promise<void> {
    this.closed = true;
    await this.acting.settled();
  }

  private queue(act: () => Promise<void>): void {
    void this.acting
      .run(act)
      .catch((err: unknown) =>
        this.log.warn(
          { err: (err as Error).message },
          'rpc self-healing: a change failed; the next verdicts try again',
        ),
      );
  }

  private async disable(id: string, index: number, streak: Streak): Promise<void> {
    const network = this.store.network(id);
    const served = network?.served[index];
    if (!network || !served || served.weight === 0 || network.etag !== streak.etag) return;
    if (this.store.invalid(id)) return this.skip('invalid_file', id, index);
    if (!network.served.some((e, k) => k !== index && e.weight > 0)) return this.skip('last_url', id, index);
    if (!this.mayChange()) return this.skip('hourly_cap', id, index);
    const entry = network.written[index];
    const trailer = `disabled rpc_urls[${index}] weight=${served.weight} url=${fingerprint(entry)} status=${streak.status}`;
    const body =
      `rpc_urls[${index}] (${streak.url}) was ${streak.status} for ${streak.count} probes in a row, from ` +
      `${streak.first} to ${streak.last}${streak.error ? `: ${streak.error}` : ''}.\n` +
      `netcfg's prober set its weight from ${served.weight} to 0 (RPC_AUTO_DISABLE); it restores ` +
      `${served.weight} once the URL answers ok for ${this.options.probes} probes over ` +
      `${this.options.spanMs} ms.`;
    const note = {
      subject: `netcfg: disable rpc_urls[${index}] of ${id} (${streak.status})`,
      body,
      trailers: [healTrailer(trailer)],
    };
    if ((await this.store.write(id, withWeight(network.written, index, 0), streak.etag, note)) === 'moved')
      return this.skip('changed', id, index);
    this.changes.push(Date.now());
    this.tally.disabled++;
    this.disabled.set(`${id}#${index}`, {
      at: streak.last,
      reason: `${streak.status}${streak.error ? `: ${streak.error}` : ''}`,
    });
    this.log.warn(
      { network: id, index, url: streak.url, status: streak.status, probes: streak.count },
      'rpc self-healing: URL disabled',
    );
  }

  private async restore(id: string, index: number, streak: Streak): Promise<void> {
    const network = this.store.network(id);
    const served = network?.served[index];
    if (!network || !served || served.weight !== 0 || network.etag !== streak.etag) return;
    if (this.store.invalid(id)) return this.skip('invalid_file', id, index);
    const weight = disabledNote(await this.store.notes(id), index, fingerprint(network.written[index]))?.weight ?? null;
    if (weight === null) return this.skip('not_ours', id, index);
    if (!this.mayChange()) return this.skip('hourly_cap', id, index);
    const body =
      `rpc_urls[${index}] (${streak.url}) answered ok for ${streak.count} probes in a row, from ${streak.first} to ${streak.last}.\n` +
      `netcfg's prober restored the weight it had before it disabled it: ${weight}.`;
    const note = {
      subject: `netcfg: restore rpc_urls[${index}] of ${id} (ok again)`,
      body,
      trailers: [
        healTrailer(`restored rpc_urls[${index}] weight=${weight} url=${fingerprint(network.written[index])}`),
      ],
    };
    if ((await this.store.write(id, withWeight(network.written, index, weight), streak.etag, note)) === 'moved')
      return this.skip('changed', id, index);
    this.changes.push(Date.now());
    this.tally.restored++;
    this.disabled.delete(`${id}#${index}`);
    this.log.info({ network: id, index, url: streak.url, weight }, 'rpc self-healing: URL restored');
  }

  private async recall(id: string, index: number, entry: unknown): Promise<void> {
    const found = disabledNote(await this.store.notes(id), index, fingerprint(entry));
    if (!found) return;
    this.disabled.set(`${id}#${index}`, { at: found.at, reason: found.status });
    this.log.info(
      { network: id, index, at: found.at },
      'rpc self-healing: a URL it disabled, read back from its commit',
    );
  }

  /** Whether another change fits in the last hour's budget. */
  private mayChange(): boolean {
    const hourAgo = Date.now() - 3_600_000;
    while (this.changes.length > 0 && (this.changes[0] as number) < hourAgo) this.changes.shift();
    return this.changes.length < this.options.maxPerHour;
  }

  private skip(reason: string, id: string, index: number): void {
    this.tally.skipped[reason] = (this.tally.skipped[reason] ?? 0) + 1;
    this.log.warn({ network: id, index, reason }, 'rpc self-healing: change not made');
  }
}

/** rpc_urls as written, with entry `index` at `weight` (a plain URL or reference becomes `{url, weight}`). */
function withWeight(written: readonly unknown[], index: number, weight: number): unknown[] {
  return written.map((entry, k) => {
    if (k !== index) return entry;
    const object =
      typeof entry === 'object' && entry !== null && 'url' in entry
        ? (entry as Record<string, unknown>)
        : { url: entry };
    return { ...object, weight };
  });
}

/** What names an entry's URL in a trailer without writing it out: a hash of its written form (a reference stays a name). */
export function fingerprint(entry: unknown): string {
  const url = typeof entry === 'object' && entry !== null && 'url' in entry ? (entry as { url: unknown }).url : entry;
  return createHash('sha256').update(JSON.stringify(url)).digest('hex').slice(0, 16);
}

/**
 * The prober's newest `disabled` note of this URL (the weight it kept, when, why), from the notes
 * of its own commits since the last commit of anyone else (newest first); null when a person
 * committed since, or the newest note of it is a restore.
 */
export function disabledNote(
  notes: HealNote[],
  index: number,
  url: string,
): { weight: number; at: string; status: string } | null {
  for (const { at, text } of notes) {
    const match = /^(disabled|restored) rpc_urls\[(\d+)\] weight=(\d+) url=([0-9a-f]+)(?: status=(\S+))?$/.exec(text);
    if (!match || match[4] !== url || Number(match[2]) !== index) continue;
    return match[1] === 'disabled' ? { weight: Number(match[3]), at, status: match[5] ?? 'unreachable' } : null;
  }
  return null;
}
