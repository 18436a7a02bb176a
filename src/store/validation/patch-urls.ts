/**
 * RPC_PROBE_ON_PATCH inside the store: the enabled URLs of a PATCH are handed to a check the store
 * is given (src/probe wires the prober; the store itself makes no network call). In `reject` mode
 * a URL that serves another chain refuses the PATCH with a detail at its entry.
 */
import { NetcfgError } from '../../errors.js';
import { normaliseEntry } from './url-rules.js';

/** What a URL of a PATCH answered, when it was not simply fine. */
export interface UrlFinding {
  url: string;
  status: string;
  error: string | null;
}

/** Asks `urls` (of a `family` network claiming `claimed`) which chain they serve; one finding per URL, in order. */
export interface UrlCheck {
  mode: 'warn' | 'reject';
  check(family: string, urls: string[], claimed: Record<string, unknown>): Promise<UrlFinding[]>;
}

/** The findings that were not fine, or a VALIDATION_FAILED refusal in `reject` mode. */
export async function checkPatchUrls(urlCheck: UrlCheck, family: string, changes: Record<string, unknown>, claimed: Record<string, unknown>): Promise<UrlFinding[]> {
  const entries = ((changes.rpc_urls ?? []) as unknown[]).map((raw, index) => ({ ...normaliseEntry(raw), index })).filter((e) => e.weight > 0);
  const answers = await urlCheck.check(family, entries.map((e) => e.url), claimed);
  const wrong = answers.map((a, i) => ({ ...a, index: entries[i]?.index ?? i })).filter((a) => a.status === 'wrong_chain');
  if (urlCheck.mode === 'reject' && wrong.length > 0) {
    const details = wrong.map((a) => ({ pointer: `/rpc_urls/${a.index}`, message: `rpc_urls[${a.index}] serves another chain: ${a.error ?? ''}` }));
    throw new NetcfgError('VALIDATION_FAILED', `${details[0]?.message}${details.length > 1 ? ` (and ${details.length - 1} more)` : ''}; nothing was written.`, { details });
  }
  return answers.filter((a) => a.status !== 'ok');
}
