/**
 * One relayer's network API, as its src/api/controllers/network.rs serves it (v1.8.0): the paged
 * list (`GET /api/v1/networks?page=&per_page=`, `pagination.total_items`) and the one live change
 * it takes (`PATCH /api/v1/networks/{id}` with exactly `{"rpc_urls": [...]}`), each with the
 * target's bearer key. Every call has a deadline and a cap on its answer, follows no redirect, and
 * fails with a RelayerCallError that says what went wrong in a sentence without the key or a URL's
 * secrets.
 */
import { redactText, redactUrl } from '../../redact.js';

export interface RelayerTarget {
  name: string;
  /** The API root (`http://relayer-eu:8080`). */
  url: string;
  apiKey: string;
}

/** What a call's failure was: the target down or slow, the key refused, a value refused (its sentence), its 5xx, or an answer that is not its API's. */
export type CallFailure = 'unreachable' | 'timeout' | 'unauthorized' | 'refused' | 'not_found' | 'server_error' | 'bad_answer';

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
}

const PER_PAGE = 100;
/** A relayer answering more pages than this is not answering its list. */
const MAX_PAGES = 1000;

/** Every network the relayer holds: id -> its rpc_urls as it answers them. */
export async function listNetworks(target: RelayerTarget, options: ClientOptions): Promise<Map<string, unknown>> {
  const networks = new Map<string, unknown>();
  for (let page = 1; page <= MAX_PAGES; page++) {
    const body = (await call(target, 'GET', `/api/v1/networks?page=${page}&per_page=${PER_PAGE}`, undefined, options)) as { data?: unknown; pagination?: { total_items?: unknown } };
    if (!Array.isArray(body.data) || typeof body.pagination?.total_items !== 'number') throw new RelayerCallError('bad_answer', `${target.name} answered its network list without data and pagination`);
    for (const network of body.data as Array<{ id?: unknown; rpc_urls?: unknown }>) if (typeof network?.id === 'string') networks.set(network.id, network.rpc_urls);
    if (body.data.length === 0 || page * PER_PAGE >= body.pagination.total_items) return networks;
  }
  throw new RelayerCallError('bad_answer', `${target.name} kept answering pages of its network list past ${MAX_PAGES}`);
}

/** Sets a network's rpc_urls on the relayer (the only change its API takes). */
export async function patchRpcUrls(target: RelayerTarget, id: string, rpcUrls: unknown, options: ClientOptions): Promise<void> {
  await call(target, 'PATCH', `/api/v1/networks/${encodeURIComponent(id)}`, JSON.stringify({ rpc_urls: rpcUrls }), options);
}

async function call(target: RelayerTarget, method: string, path: string, body: string | undefined, options: ClientOptions): Promise<unknown> {
  const where = `${target.name} (${redactUrl(target.url)})`;
  const signal = AbortSignal.timeout(options.timeoutMs);
  const late = (): RelayerCallError => new RelayerCallError('timeout', `${where} did not answer ${method} within ${options.timeoutMs} ms`);
  let response: Response;
  try {
    response = await fetch(`${target.url}${path}`, {
      method,
      body,
      redirect: 'manual',
      headers: { authorization: `Bearer ${target.apiKey}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      signal,
    });
  } catch (err) {
    if ((err as Error).name === 'TimeoutError') throw late();
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
    throw new RelayerCallError('unreachable', `${where} cannot be reached (${redactText(String(cause))})`);
  }
  const text = await readCapped(response, options, where);
  if (signal.aborted) throw late(); // the deadline passed while the answer was still coming
  if (response.status === 401 || response.status === 403) throw new RelayerCallError('unauthorized', `${where} refused the key (${response.status}); check its api_key_env`);
  if (response.status === 404) throw new RelayerCallError('not_found', `${where} has no ${path.split('?')[0]} (404): ${sentenceOf(text)}`);
  if (response.status >= 400 && response.status < 500) throw new RelayerCallError('refused', `${where} refused the ${method} (${response.status}): ${sentenceOf(text)}`);
  if (response.status >= 500) throw new RelayerCallError('server_error', `${where} failed (${response.status}): ${sentenceOf(text)}`);
  if (response.status !== 200) throw new RelayerCallError('bad_answer', `${where} answered ${response.status} where its API answers 200`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new RelayerCallError('bad_answer', `${where} answered something that is not JSON`);
  }
}

/** The body, read up to the cap (a relayer that streams without end cannot fill netcfg's memory). */
async function readCapped(response: Response, options: ClientOptions, where: string): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done || !value) break;
    size += value.length;
    if (size > options.maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new RelayerCallError('bad_answer', `${where} answered more than ${options.maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The relayer's own sentence (`error` of its envelope, or its text), short and redacted. */
function sentenceOf(text: string): string {
  let sentence = text;
  try {
    const parsed = JSON.parse(text) as { error?: unknown; message?: unknown };
    sentence = typeof parsed.error === 'string' ? parsed.error : typeof parsed.message === 'string' ? parsed.message : text;
  } catch {
    // not JSON: its text is the sentence (actix answers a body it cannot parse in plain text)
  }
  const short = sentence.replace(/\s+/g, ' ').trim();
  return redactText(short.length > 300 ? `${short.slice(0, 297)}...` : short) || 'no reason given';
}
