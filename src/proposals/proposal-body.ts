/**
 * The description of a proposal's pull request: the change (rpc_urls before and after, each secret
 * masked as it is served, so the forge never holds a provider key), who proposed it, and what each
 * new URL answered where RPC_PROBE_ON_PATCH asked it; a new network's says where its values came
 * from (the registry entry) and each candidate URL's verdict. Markdown, read the same on the three forges.
 */
import type { Proposal } from '../store/index.js';

export interface BodyParts {
  proposal: Proposal;
  /** The actor as its commit's trailer names it (`token:relayer-eu`). */
  actor: string;
  /** Whether RPC_PROBE_ON_PATCH asked the new URLs (off: no verdict is shown, none was made). */
  probed: boolean;
}

interface Entry {
  url: string;
  weight: number | null;
}

/** An rpc_urls entry as served: a string, or an object with url and weight. */
function entryOf(raw: unknown): Entry {
  if (typeof raw === 'string') return { url: raw, weight: null };
  const { url, weight } = (raw ?? {}) as { url?: unknown; weight?: unknown };
  return { url: String(url ?? ''), weight: typeof weight === 'number' ? weight : null };
}

function entriesOf(list: unknown): Entry[] {
  return Array.isArray(list) ? list.map(entryOf) : [];
}

/** A value in inline code, its backticks taken out so no URL can break the Markdown around it. */
function code(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}

function listed(entries: Entry[]): string[] {
  if (entries.length === 0) return ['- (none)'];
  return entries.map((e) => `- ${code(e.url)}${e.weight === null ? '' : ` (weight ${e.weight})`}`);
}

/** Each new URL's verdict: a finding's status and words, `ok` for one asked and fine, or why it was not asked. */
function verdicts(parts: BodyParts, after: Entry[]): string[] {
  if (!parts.probed) return ['Not probed: RPC_PROBE_ON_PATCH is off.'];
  const found = new Map(parts.proposal.findings.map((f) => [f.url, f]));
  return after.map((e) => {
    if (e.weight === 0) return `- ${code(e.url)}: not asked (weight 0)`;
    const finding = found.get(e.url);
    if (!finding) return `- ${code(e.url)}: ok (serves the network's chain)`;
    return `- ${code(e.url)}: **${finding.status}**${finding.error ? ` — ${finding.error.replace(/\s+/g, ' ')}` : ''}`;
  });
}

export function proposalBody(parts: BodyParts): string {
  const { proposal } = parts;
  const before = entriesOf(proposal.old_rpc_urls);
  const after = entriesOf(proposal.new_rpc_urls);
  return [
    `Proposed through netcfg by ${code(parts.actor)} for network ${code(proposal.network)}.`,
    '',
    '### rpc_urls before',
    ...listed(before),
    '',
    '### rpc_urls after',
    ...listed(after),
    '',
    '### Probe of the new URLs',
    ...verdicts(parts, after),
    '',
    `Commit ${code(proposal.commit)} on ${code(proposal.base.slice(0, 12))}. Secret values are masked as netcfg serves them.`,
  ].join('\n');
}

/** A candidate URL's verdict as POST /api/v1/networks planned it (registry/choose.ts). */
export interface Verdict {
  url: string;
  status: string;
  reason: string | null;
  chosen: boolean;
}

export interface AddBodyParts {
  proposal: Proposal;
  actor: string;
  registry: { source: string; entry: string; date: string } | null;
  candidates: Verdict[];
}

/** The description of a new network's pull request: what it adds, from which registry entry, and every candidate's verdict. */
export function addProposalBody(parts: AddBodyParts): string {
  const { proposal, registry, candidates } = parts;
  const from = registry
    ? `Values from ${code(registry.entry)} in ${code(registry.source)} (data of ${registry.date}), and the request's body.`
    : "Values from the request's body alone (no registry entry).";
  const verdicts = candidates.map(
    (c) =>
      `- ${code(c.url)}: ${c.chosen ? 'kept' : 'not kept'} (${c.status}${c.reason ? ` — ${c.reason.replace(/\s+/g, ' ')}` : ''})`,
  );
  return [
    `Proposed through netcfg by ${code(parts.actor)}: adds the network ${code(proposal.network)}.`,
    '',
    from,
    '',
    '### rpc_urls',
    ...listed(entriesOf(proposal.new_rpc_urls)),
    '',
    '### Candidate URLs',
    ...(verdicts.length > 0 ? verdicts : ['- (none)']),
    '',
    `Commit ${code(proposal.commit)} on ${code(proposal.base.slice(0, 12))}. Secret values are masked as netcfg serves them.`,
  ].join('\n');
}
