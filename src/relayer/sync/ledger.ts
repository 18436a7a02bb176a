/**
 * What one relayer sync knows of its relayer's networks: each network not in sync (its status) and
 * the findings behind it, kept together so a finding opens when its network leaves sync and resolves
 * when it returns. Findings found during a pass are held and told once the pass ends, with the
 * status it ended in; any other is told at once.
 */
import { FindingsLog, type Finding, type FindingDetail, type FindingKind } from './findings.js';
import { reloadRemedy, type NetworkState, type NetworkStatus } from './target-status.js';
import { staleSentence } from './compare.js';

const NOTHING: FindingDetail = { fields: [], relayer_value: null, netcfg_value: null, sent: null };

export class NetworkLedger {
  readonly networks = new Map<string, NetworkStatus>();
  readonly findings = new FindingsLog();
  private extraNow: string[] = [];
  private held: Finding[] | null = null;

  constructor(
    private readonly relayer: string,
    private readonly told: (finding: Finding) => void,
  ) {}

  /** The networks only the relayer has, as last seen. */
  get extra(): readonly string[] {
    return this.extraNow;
  }

  /** From now until `release`, findings wait (a pass in progress). */
  hold(): void {
    this.held ??= [];
  }

  release(): void {
    const found = this.held ?? [];
    this.held = null;
    for (const finding of found) this.told(finding);
  }

  tell(finding: Finding | null): void {
    if (finding && this.held) this.held.push(finding);
    else if (finding) this.told({ ...finding });
  }

  /** Sets a network's status and its open findings to `kinds`: the others resolved. Returns the kinds newly found. */
  settle(
    id: string,
    kinds: FindingKind[],
    status?: NetworkStatus,
    details: Partial<Record<FindingKind, FindingDetail>> = {},
  ): FindingKind[] {
    if (status) this.networks.set(id, status);
    else this.networks.delete(id);
    const open = this.findings.openOf(id);
    for (const f of open) if (!kinds.includes(f.kind)) this.tell(this.findings.resolve(id, f.kind));
    const found: FindingKind[] = [];
    for (const kind of kinds) {
      // A drift or stale finding given no new detail (its PATCH failed) stays as it was found.
      if (!details[kind] && (kind === 'drift' || kind === 'stale') && open.some((f) => f.kind === kind)) continue;
      const { found: f } = this.findings.note(
        id,
        kind,
        details[kind] ?? { ...NOTHING, relayer_value: status?.error ?? null },
      );
      if (f) found.push(kind);
      this.tell(f);
    }
    return found;
  }

  /** The relayer took netcfg's rpc_urls for `id`: drift (and a refusal) closed; what else differs stays stale. */
  rpcUrlsTaken(id: string): void {
    const current = this.networks.get(id);
    const stale = (current?.fields ?? []).filter((f) => f !== 'rpc_urls');
    if (!current || stale.length === 0 || !this.findings.openOf(id).some((f) => f.kind === 'stale'))
      return void this.settle(id, []);
    const pick = (v: unknown): Record<string, unknown> =>
      Object.fromEntries(stale.map((f) => [f, (v as Record<string, unknown>)[f]]));
    this.settle(id, ['stale'], {
      id,
      state: 'stale',
      fields: stale,
      relayer: pick(current.relayer),
      netcfg: pick(current.netcfg),
      error: staleSentence(stale, this.relayer),
    });
  }

  /** The relayer refused netcfg's rpc_urls for `id` (`why`): missing when it has no such network, else failing. */
  rpcUrlsRefused(id: string, why: string, missing: boolean): void {
    if (missing)
      return void this.settle(id, ['missing'], {
        id,
        state: 'missing',
        error: `${why}; ${reloadRemedy(this.relayer)}`,
      });
    // What else was found of the network stays open: the refusal hides nothing the last pass saw.
    const kinds = this.findings
      .openOf(id)
      .map((f) => f.kind)
      .filter((k) => k !== 'failing');
    this.settle(id, ['failing', ...kinds], { ...this.networks.get(id), id, state: 'failing', error: why });
  }

  /** How many of `ids` are in each state (a network with no status is in sync), and the extra ones. */
  counts(ids: string[]): Record<NetworkState, number> & { extra: number } {
    const counts = { in_sync: 0, drifted: 0, stale: 0, missing: 0, failing: 0, extra: this.extra.length };
    for (const id of ids) counts[this.networks.get(id)?.state ?? 'in_sync']++;
    return counts;
  }

  /** The worst state of any network: what the relayer's own state is once its passes succeed. */
  worst(): NetworkState {
    const states = new Set([...this.networks.values()].map((n) => n.state));
    for (const s of ['failing', 'drifted', 'stale', 'missing'] as const) if (states.has(s)) return s;
    return 'in_sync';
  }

  /** The networks of the relayer: the networks not in sync, by id. */
  statuses(): NetworkStatus[] {
    return [...this.networks.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  /** The networks only the relayer has, now: each one a finding while it lasts. */
  noteExtra(extra: string[]): void {
    for (const id of this.extraNow) if (!extra.includes(id)) this.tell(this.findings.resolve(id, 'extra'));
    for (const id of extra) this.tell(this.findings.note(id, 'extra', NOTHING).found);
    this.extraNow = extra;
  }

  /** The relayer as a whole failed (`why`), or passed again (null). */
  noteFailure(why: string | null): void {
    if (why === null) this.tell(this.findings.resolve(null, 'failing'));
    else this.tell(this.findings.note(null, 'failing', { ...NOTHING, relayer_value: why }).found);
  }
}
