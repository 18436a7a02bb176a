/**
 * Adding a network through the public API: the chain registry's search, the dry run (what would be
 * written and each candidate URL's verdict) and the create itself, as POST /api/v1/networks serves
 * them (docs/add.md). Only the server's answers are kept: nothing here guesses a verdict.
 */
import type { Api, Loaded, Network, OpenedProposal } from './api.js';

/** One entry of GET /api/v1/registry/chains. */
export interface ChainMatch {
  chain_id: number;
  name: string;
  short_name: string | null;
  is_testnet: boolean;
}

/** One candidate RPC URL and what the screen or the probe said of it. */
export interface Candidate {
  url: string;
  status: string;
  chain_id: number | null;
  head: number | null;
  latency_ms: number | null;
  reason: string | null;
  chosen: boolean;
}

/** The registry entry a network came from, or null when none was used. */
export type RegistrySource = { source: string; entry: string; date: string } | null;

/** A dry run's answer: nothing was written. */
export interface Planned {
  network: Record<string, unknown>;
  candidates: Candidate[];
  registry: RegistrySource;
  problems: Array<{ pointer: string; message: string }>;
}

/** What the form holds: the chain picked, the new id and what the operator set. */
export interface AddForm {
  chainId: number;
  id: string;
  /** As typed; blank leaves it to the server's stated default. */
  confirmations: string;
  allowHttp: boolean;
}

/** The id a picked chain suggests: `evm:<short name>`, else its name, lower case, other characters as `-`. */
export function suggestedId(chain: ChainMatch): string {
  const name = (chain.short_name ?? chain.name)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `evm:${name}`;
}

/** The POST body: `urls` (the operator's choice after a check) are sent as the candidates, the rest from the registry. */
export function createBody(form: AddForm, urls?: string[]): Record<string, unknown> {
  const confirmations = form.confirmations.trim();
  return {
    id: form.id.trim(),
    chain_id: form.chainId,
    from_registry: true,
    ...(form.allowHttp ? { allow_http: true } : {}),
    // Sent as typed when it is not a whole number: the server's schema names the problem at its pointer.
    ...(confirmations === ''
      ? {}
      : { required_confirmations: /^\d+$/.test(confirmations) ? Number(confirmations) : confirmations }),
    ...(urls ? { rpc_urls: urls, max: Math.min(Math.max(urls.length, 1), 32) } : {}),
  };
}

export async function searchChains(api: Api, q: string): Promise<ChainMatch[]> {
  return (await api.get<ChainMatch[]>(`/api/v1/registry/chains?q=${encodeURIComponent(q)}`)).data;
}

export async function planNetwork(api: Api, body: Record<string, unknown>): Promise<Planned> {
  return (await api.postJson<Planned>('/api/v1/networks', { ...body, dry_run: true })).data;
}

/** Written (the network) or, with `propose`, a pull request opened (the server's 202). */
export async function createNetwork(
  api: Api,
  body: Record<string, unknown>,
  propose: boolean,
): Promise<Loaded<Network | { proposal: OpenedProposal }>> {
  return api.postJson<Network | { proposal: OpenedProposal }>(
    `/api/v1/networks${propose ? '?propose=true' : ''}`,
    body,
  );
}
