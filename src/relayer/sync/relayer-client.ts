/**
 * One relayer's network API, as its src/api/controllers/network.rs serves it (v1.8.0): the paged
 * list (`GET /api/v1/networks?page=&per_page=`, `pagination` {current_page, per_page, total_items})
 * and the one live change it takes (`PATCH /api/v1/networks/{id}` with exactly `{"rpc_urls": [...]}`),
 * each with the target's bearer key and netcfg's instance header (a target that is netcfg itself
 * answers it with 508: loop-guard.ts). Every call has a deadline and a cap on its answer, follows no
 * redirect, and fails with a RelayerCallError whose sentence holds neither the key nor a URL's secrets.
 */
import { redactUrl } from '../../redact.js';
import { INSTANCE_HEADER } from '../../instance.js';
import { answeredForm } from '../format/relayer-form.js';
import { keyScrubber } from './scrub.js';

export interface RelayerTarget {
  name: string;
  /** The API root (`http://relayer-eu:8080`). */
  url: string;
  apiKey: string;
  /** false: drift found by a pass is reported and left in place (changes made through netcfg are still sent). */
  selfHeal?: boolean;
}

/**
 * What a call's failure was: down or slow, the key refused, a value refused, its 5xx, an answer not its API's, past the budget,
 * netcfg itself, or this replica's window to speak over (`silent`: not the relayer's fault).
 */
export type CallFailure =
  | 'unreachable'
  | 'timeout'
  | 'unauthorized'
  | 'refused'
  | 'not_found'
  | 'server_error'
  | 'bad_answer'
  | 'over_budget'
  | 'self'
  | 'silent';

export class RelayerCallError extends Error {
  constructor(
    readonly failure: CallFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface ClientOptions {
  /** Deadline of each request. */
  timeoutMs: number;
  /** Largest answer read (a list page of 100 networks is ~100 KB). */
  maxBytes: number;
  /** This process's instance id, sent in INSTANCE_HEADER. */
  instanceId: string;
  /** How much longer this replica may speak to relayers (the lease): each call's deadline is cut to it. */
  speaksForMs?: () => number;
  /** Aborted when the sync closes: a call in flight ends at once, told as silent (nothing is recorded of it). */
  closing?: AbortSignal;
}

/** What one pass may read of one relayer: past either, it stops reading and the relayer is failing. */
export interface PassBudget {
  maxPassBytes: number;
  maxPassNetworks: number;
}

/** A relayer's list as one pass read it: each network's answered fields, and what reading it took. */
export interface ListedNetworks {
  networks: Map<string, Record<string, unknown>>;
  pages: number;
  bytes: number;
}

const PER_PAGE = 100;

/**
 * Every network the relayer holds. Pages are walked by what each answer says (its `per_page`, its
 * `total_items`, its data's length), never by the `per_page` asked: a relayer or a proxy may apply a
 * smaller one. Only the answered fields of each network are kept, and reading stops at the budget.
 */
export async function listNetworks(
  target: RelayerTarget,
  options: ClientOptions & PassBudget,
): Promise<ListedNetworks> {
  const networks = new Map<string, Record<string, unknown>>();
  let [bytes, seen] = [0, 0];
  for (let page = 1; ; page++) {
    const left = options.maxPassBytes - bytes;
    const { body, size } = await call(
      target,
      'GET',
      `/api/v1/networks?page=${page}&per_page=${PER_PAGE}`,
      undefined,
      { ...options, maxBytes: Math.min(options.maxBytes, left) },
      left < options.maxBytes,
    );
    bytes += size;
    const { data, pagination } = body as { data?: unknown; pagination?: { per_page?: unknown; total_items?: unknown } };
    const total = pagination?.total_items;
    if (!Array.isArray(data) || typeof total !== 'number')
      throw new RelayerCallError('bad_answer', `${target.name} answered its network list without data and pagination`);
    seen += data.length;
    if (seen > options.maxPassNetworks || total > options.maxPassNetworks) {
      throw new RelayerCallError(
        'over_budget',
        `${target.name} answers more than ${options.maxPassNetworks} networks, this pass's budget; netcfg stopped reading it`,
      );
    }
    for (const network of data as Array<Record<string, unknown> | null>)
      if (typeof network?.id === 'string') networks.set(network.id, answeredForm(network));
    const perPage =
      typeof pagination?.per_page === 'number' && pagination.per_page > 0 ? pagination.per_page : data.length;
    if (data.length === 0 || page * perPage >= total || seen >= total) return { networks, pages: page, bytes };
  }
}

/** Sets a network's rpc_urls on the relayer (the only change its API takes). */
export async function patchRpcUrls(
  target: RelayerTarget,
  id: string,
  rpcUrls: unknown,
  options: ClientOptions,
): Promise<void> {
  await call(
    target,
    'PATCH',
    `/api/v1/networks/${encodeURIComponent(id)}`,
    JSON.stringify({ rpc_urls: rpcUrls }),
    options,
    false,
  );
}

async function call(
  target: RelayerTarget,
  method: string,
  path: string,
  body: string | undefined,
  options: ClientOptions,
  budgetCap: boolean,
): Promise<{ body: unknown; size: number }> {
  const where = `${target.name} (${redactUrl(target.url)})`;
  const scrub = keyScrubber(target.apiKey);
  // No call outlives this replica's window: the next holder's first call comes after it (lease.ts).
  const window = Math.floor(options.speaksForMs?.() ?? Infinity);
  if (window < 1)
    throw new RelayerCallError('silent', `${where} was not called: this replica no longer speaks to the relayers`);
  const cut = window < options.timeoutMs;
  const deadline = AbortSignal.timeout(cut ? window : options.timeoutMs);
  const signal = options.closing ? AbortSignal.any([deadline, options.closing]) : deadline;
  const late = (): RelayerCallError =>
    options.closing?.aborted
      ? new RelayerCallError('silent', `${where} was not answered: netcfg is shutting down`)
      : cut
        ? new RelayerCallError(
            'silent',
            `${where} did not answer ${method} before this replica's turn to speak to the relayers ended`,
          )
        : new RelayerCallError('timeout', `${where} did not answer ${method} within ${options.timeoutMs} ms`);
  let response: Response;
  try {
    const headers: Record<string, string> = {
      authorization: `Bearer ${target.apiKey}`,
      accept: 'application/json',
      [INSTANCE_HEADER]: options.instanceId,
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    response = await fetch(`${target.url}${path}`, { method, body, redirect: 'manual', headers, signal });
  } catch (err) {
    if (signal.aborted) throw late();
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
    throw new RelayerCallError('unreachable', `${where} cannot be reached (${scrub(String(cause))})`);
  }
  if (response.status === 508 && response.headers.get(INSTANCE_HEADER) === options.instanceId) {
    await response.body?.cancel().catch(() => undefined);
    throw new RelayerCallError('self', `${where} points at netcfg itself; nothing is sent to it`);
  }
  const text = await readCapped(response, options.maxBytes, where, budgetCap);
  if (signal.aborted) throw late(); // the deadline passed while the answer was still coming
  const said = (): string => sentenceOf(text, scrub);
  if (response.status === 401 || response.status === 403)
    throw new RelayerCallError('unauthorized', `${where} refused the key (${response.status}); check its api_key_env`);
  if (response.status === 404)
    throw new RelayerCallError('not_found', `${where} has no ${path.split('?')[0]} (404): ${said()}`);
  if (response.status >= 400 && response.status < 500)
    throw new RelayerCallError('refused', `${where} refused the ${method} (${response.status}): ${said()}`);
  if (response.status >= 500)
    throw new RelayerCallError('server_error', `${where} failed (${response.status}): ${said()}`);
  if (response.status !== 200)
    throw new RelayerCallError('bad_answer', `${where} answered ${response.status} where its API answers 200`);
  try {
    return { body: JSON.parse(text) as unknown, size: Buffer.byteLength(text) };
  } catch {
    throw new RelayerCallError('bad_answer', `${where} answered something that is not JSON`);
  }
}

/** The body, read up to `cap` bytes (a relayer that streams without end cannot fill netcfg's memory). */
async function readCapped(response: Response, cap: number, where: string, budgetCap: boolean): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done || !value) break;
    size += value.length;
    if (size > cap) {
      await reader.cancel().catch(() => undefined);
      if (budgetCap)
        throw new RelayerCallError(
          'over_budget',
          `${where} answered more bytes than this pass's budget; netcfg stopped reading it`,
        );
      throw new RelayerCallError('bad_answer', `${where} answered more than ${cap} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The relayer's own sentence (`error` of its envelope, or its text), short, without its key or secrets. */
function sentenceOf(text: string, scrub: (text: string) => string): string {
  let sentence = text;
  try {
    const parsed = JSON.parse(text) as { error?: unknown; message?: unknown };
    sentence =
      typeof parsed.error === 'string' ? parsed.error : typeof parsed.message === 'string' ? parsed.message : text;
  } catch {
    // not JSON: its text is the sentence (actix answers a body it cannot parse in plain text)
  }
  const short = scrub(sentence.replace(/\s+/g, ' ').trim()); // scrubbed whole, before a cut could split the key
  return short.length > 300 ? `${short.slice(0, 297)}...` : short || 'no reason given';
}
