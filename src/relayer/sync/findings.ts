/**
 * What a relayer sync found, kept: each difference from the time it was found to the time it was
 * resolved, newest first, at most FINDINGS_KEPT per relayer (the oldest are dropped; a finding still
 * open stays known to its network's status). A difference seen again unchanged is the same finding.
 */
import { isDeepStrictEqual } from 'node:util';

/** drift: rpc_urls differ (netcfg sets them back); stale: another field differs (the relayer's API cannot change it); missing, extra, failing. */
export type FindingKind = 'drift' | 'stale' | 'missing' | 'extra' | 'failing';
export const FINDING_KINDS: readonly FindingKind[] = ['drift', 'stale', 'missing', 'extra', 'failing'];

export interface Finding {
  /** The network's id; null for the relayer as a whole (a pass that failed). */
  network: string | null;
  kind: FindingKind;
  /** The fields that differ (drift, stale). */
  fields: string[];
  /** What the relayer holds of those fields (redacted), or why it failed. */
  relayer_value: unknown;
  /** What netcfg would have it hold (redacted). */
  netcfg_value: unknown;
  /** What netcfg sent to set it back (redacted); null when nothing was sent (stale, missing, self_heal: false). */
  sent: unknown;
  found_at: string;
  resolved_at: string | null;
}

export type FindingDetail = Pick<Finding, 'fields' | 'relayer_value' | 'netcfg_value' | 'sent'>;

export const FINDINGS_KEPT = 1000;

export class FindingsLog {
  private readonly kept: Finding[] = [];
  private readonly open = new Map<string, Finding>();
  private readonly opened: Record<FindingKind, number> = { drift: 0, stale: 0, missing: 0, extra: 0, failing: 0 };

  constructor(private readonly limit = FINDINGS_KEPT) {}

  /** Notes a difference; the new finding, or null when the same one is already open. */
  note(
    network: string | null,
    kind: FindingKind,
    detail: FindingDetail,
    now = new Date(),
  ): { found: Finding | null; resolved: Finding | null } {
    const key = `${kind}\n${network ?? ''}`;
    const current = this.open.get(key);
    const same =
      current &&
      isDeepStrictEqual(
        [current.fields, current.relayer_value, current.netcfg_value],
        [detail.fields, detail.relayer_value, detail.netcfg_value],
      );
    if (same) return { found: null, resolved: null };
    const resolved = this.resolve(network, kind, now);
    const found: Finding = { network, kind, ...detail, found_at: now.toISOString(), resolved_at: null };
    this.open.set(key, found);
    this.opened[kind]++;
    this.kept.push(found);
    if (this.kept.length > this.limit) this.kept.splice(0, this.kept.length - this.limit);
    return { found, resolved };
  }

  /** Marks the open finding of that network and kind resolved; it, or null when none was open. */
  resolve(network: string | null, kind: FindingKind, now = new Date()): Finding | null {
    const key = `${kind}\n${network ?? ''}`;
    const current = this.open.get(key);
    if (!current) return null;
    this.open.delete(key);
    current.resolved_at = now.toISOString();
    return current;
  }

  /** The open findings of one network (null: of the relayer as a whole). */
  openOf(network: string | null): Finding[] {
    return [...this.open.values()].filter((f) => f.network === network);
  }

  /** Every network with an open finding about it (not `extra`: those are about the relayer's own networks). */
  openNetworks(): Set<string> {
    return new Set(
      [...this.open.values()].flatMap((f) => (f.network === null || f.kind === 'extra' ? [] : [f.network])),
    );
  }

  /** Newest first. */
  list(): Finding[] {
    return [...this.kept].reverse().map((f) => ({ ...f }));
  }

  /** Findings opened since start, by kind. */
  counts(): Record<FindingKind, number> {
    return { ...this.opened };
  }
}
