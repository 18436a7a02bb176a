/**
 * One HTTP call to a forge: a deadline per call, a cap on the answer, no redirect followed (a
 * redirect would carry the token to wherever the forge points). What comes back is the raw answer;
 * a transport failure is already a NetcfgError. GitHub's client uses it as its fetch, the GitLab and
 * Gitea clients call it directly, so all three keep the same limits.
 */
import { NetcfgError } from '../errors.js';
import { redactText } from '../redact.js';

export interface ForgeLimits {
  /** Deadline of each call (GIT_REMOTE_TIMEOUT_MS). */
  timeoutMs: number;
  /** Largest answer read: a page of 100 pull requests is a few hundred KB on GitHub. */
  maxBytes: number;
}

export const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** Names the forge in sentences: `GitHub (https://api.github.com, octo/networks)`. */
export interface ForgePlace {
  where: string;
  /** The token, scrubbed from anything shown even if a forge echoes it back. */
  token: string;
}

export async function forgeFetch(
  place: ForgePlace,
  url: string,
  init: RequestInit,
  limits: ForgeLimits,
): Promise<Answer> {
  const what = `${init.method ?? 'GET'} ${new URL(url).pathname}`;
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const late = (): NetcfgError =>
    new NetcfgError(
      'FORGE_UNAVAILABLE',
      `${place.where} did not answer ${shown(place, what)} within ${limits.timeoutMs} ms; retry later.`,
    );
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'manual', signal });
  } catch (err) {
    if ((err as Error).name === 'TimeoutError') throw late();
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
    throw new NetcfgError(
      'FORGE_UNAVAILABLE',
      `${place.where} cannot be reached (${shown(place, String(cause))}); retry later.`,
    );
  }
  let text: string;
  try {
    text = await readCapped(response, limits.maxBytes);
  } catch (err) {
    if (signal.aborted) throw late(); // the deadline passed while the answer was still coming
    throw err instanceof NetcfgError
      ? withPlace(err, place)
      : new NetcfgError('FORGE_UNAVAILABLE', `${place.where} broke off its answer; retry later.`);
  }
  if (response.status >= 300 && response.status < 400) {
    const redirect = `a redirect (${response.status}), which netcfg does not follow`;
    throw new NetcfgError('FORGE_REFUSED', `${place.where} answered ${what} with ${redirect}; check GIT_FORGE_URL.`);
  }
  return { status: response.status, headers: response.headers, text };
}

/** The body, read up to the cap (a forge that streams without end cannot fill netcfg's memory). */
async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new NetcfgError('FORGE_REFUSED', `answered more than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function withPlace(err: NetcfgError, place: ForgePlace): NetcfgError {
  return new NetcfgError(err.code, `${place.where} ${err.message}.`);
}

/** Text from or about the forge, safe to show: URLs redacted, the token replaced, kept short. */
export function shown(place: ForgePlace, text: string): string {
  const scrubbed = place.token === '' ? text : text.split(place.token).join('***');
  const short = redactText(scrubbed.replace(/\s+/g, ' ').trim());
  return short.length > 300 ? `${short.slice(0, 297)}...` : short;
}
