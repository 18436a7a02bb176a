/**
 * What `netcfg add` and POST /api/v1/networks make of a request, written nowhere: the fields of
 * the new network (evm from the registry entry, what the request says winning; solana and stellar
 * from the request alone), each candidate RPC URL's verdict, and the lines of the file's comment.
 * The CLI writes the plan to a folder; the API hands it to the store.
 */
import { NetcfgError } from '../errors.js';
import { claimedOf } from '../probe/chain-probe.js';
import type { Prober } from '../probe/prober.js';
import type { UrlPolicy } from '../store/index.js';
import { chooseUrls, type Candidate } from './choose.js';
import { DEFAULT_CONFIRMATIONS, draftFields, screenUrls } from './draft.js';
import type { Registry, RegistryChain, RegistryLoad } from './registry-file.js';
import { findChain } from './registry-find.js';

export interface AddRequest {
  family: string;
  name: string;
  /** Fields the request sets (a body's, or flags'): they win over the registry's. */
  fields: Record<string, unknown>;
  /** Fill what `fields` leave out from the registry (evm only). */
  fromRegistry: boolean;
  probe: boolean;
  max: number;
  allowHttp: boolean;
}

export interface PlanDeps {
  /** The registry, read when first needed. */
  registry: () => RegistryLoad;
  prober: Prober | null;
  policy: UrlPolicy;
}

export interface Plan {
  fields: Record<string, unknown>;
  candidates: Candidate[];
  registry: { source: string; entry: string; date: string } | null;
  /** The file's comment, a line each; also what the CLI tells on stderr. */
  comment: string[];
}

export async function planNetwork(request: AddRequest, deps: PlanDeps): Promise<Plan> {
  const { family } = request;
  const found = request.fromRegistry && family === 'evm' ? entryFor(request, deps) : null;
  const fields: Record<string, unknown> = { ...(found ? draftFields(found.entry) : {}), ...request.fields };
  delete fields.rpc_urls;
  const defaulted = family === 'evm' && typeof fields.required_confirmations !== 'number';
  if (defaulted)
    fields.required_confirmations = DEFAULT_CONFIRMATIONS[fields.is_testnet === true ? 'testnet' : 'other'];
  const urls = Array.isArray(request.fields.rpc_urls) ? urlsOf(request.fields.rpc_urls) : (found?.entry.rpc ?? []);
  const screened = screenUrls(urls, deps.policy, request.allowHttp);
  const choice = await chooseUrls(family, screened, claimedOf(fields), request.max, request.probe ? deps.prober : null);
  fields.rpc_urls = choice.chosen;
  const comment = commentOf(request, found, choice.candidates);
  if (found && fields.is_testnet === true && request.fields.is_testnet === undefined)
    comment.push("is_testnet: the registry entry's name or title calls it a test network.");
  if (defaulted)
    comment.push(
      `required_confirmations: ${String(fields.required_confirmations)}, netcfg's default (--confirmations to choose).`,
    );
  if (family === 'evm' && choice.fastest && deps.prober && fields.average_blocktime_ms === undefined) {
    const measured = await deps.prober.blockTime(choice.fastest.url, choice.fastest.head);
    if (measured.ms !== null) {
      fields.average_blocktime_ms = measured.ms;
      comment.push(
        `average_blocktime_ms measured at ${choice.fastest.url} over the last blocks below ${choice.fastest.head}.`,
      );
    } else comment.push(`average_blocktime_ms left out: it could not be measured (${measured.why}).`);
  }
  const registry = found
    ? { source: found.registry.source, entry: entryName(found.entry), date: found.registry.date }
    : null;
  return { fields, candidates: choice.candidates, registry, comment };
}

function entryFor(request: AddRequest, deps: PlanDeps): { registry: Registry; entry: RegistryChain } {
  const loaded = deps.registry();
  if (!loaded.ok) throw new NetcfgError('NOT_READY', `${loaded.problem}; nothing was written.`);
  const chainId = typeof request.fields.chain_id === 'number' ? request.fields.chain_id : undefined;
  const found = findChain(loaded.registry.chains, { chainId, name: request.name });
  if (found.kind === 'found') return { registry: loaded.registry, entry: found.entry };
  if (found.kind === 'none')
    throw new NetcfgError(
      'VALIDATION_FAILED',
      `No chain of ${loaded.registry.source} has the ${found.looked}; give --chain-id (chain_id) or pick another name. Nothing was written.`,
      {
        details: [
          { pointer: chainId === undefined ? '/id' : '/chain_id', message: `no registry entry for ${found.looked}` },
        ],
      },
    );
  const details = found.candidates.map((c) => ({ pointer: '/chain_id', message: entryName(c) }));
  throw new NetcfgError(
    'VALIDATION_FAILED',
    `${found.candidates.length} chains of ${loaded.registry.source} match "${request.name}"; ` +
      'choose one with --chain-id (chain_id). Nothing was written.',
    { details },
  );
}

/** An entry as named in comments, lists and answers: `chainId 10 "OP Mainnet" (shortName oeth)`. */
export function entryName(entry: RegistryChain): string {
  return `chainId ${entry.chainId} "${entry.name}"${entry.shortName ? ` (shortName ${entry.shortName})` : ''}`;
}

function urlsOf(list: unknown[]): string[] {
  return list.map((u) => (typeof u === 'string' ? u : String((u as { url?: unknown } | null)?.url ?? '')));
}

function commentOf(
  request: AddRequest,
  found: { registry: Registry; entry: RegistryChain } | null,
  candidates: Candidate[],
): string[] {
  const lines: string[] = [];
  if (found) {
    const { registry, entry } = found;
    lines.push(
      `Added by netcfg add from the chain registry ${registry.source} (data of ${registry.date}), entry ${entryName(entry)}.`,
    );
    if (entry.status && entry.status !== 'active') lines.push(`The registry marks this chain ${entry.status}.`);
    if ((entry.redFlags ?? []).length > 0)
      lines.push(`The registry's red flags: ${(entry.redFlags ?? []).join(', ')}.`);
  } else lines.push('Added by netcfg add from the values given (no registry).');
  const kept = candidates.filter((c) => c.chosen).length;
  const how = request.probe ? 'probed: on the right chain and not lagging, fastest first' : 'not probed (--no-probe)';
  lines.push(`rpc_urls: ${kept} of ${candidates.length} candidates, ${how}, at most ${request.max}.`);
  return lines;
}
