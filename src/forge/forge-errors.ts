/**
 * A forge's failing answer as netcfg's error, one mapping for all three forges: rate-limited or
 * failing inside is FORGE_UNAVAILABLE (503, with the seconds to wait where the forge said), a
 * refusal of the token, the repository or the request is FORGE_REFUSED (502). Each says what to do
 * in a sentence that holds the forge's own words but never the token.
 */
import { NetcfgError } from '../errors.js';
import { shown, type Answer, type ForgePlace } from './forge-fetch.js';

/** Said where the token lacks a right: what each forge's token needs (docs/proposals.md). */
const SCOPES = 'the token needs to read the repository and write pull requests (docs/proposals.md)';

export function answerError(place: ForgePlace, what: string, answer: Answer): NetcfgError {
  const { status } = answer;
  const sentence = shown(place, sentenceOf(answer.text));
  const retryAfterSeconds = retryAfterOf(answer.headers);
  if (isRateLimited(answer)) {
    const wait = retryAfterSeconds === undefined ? 'retry later' : `retry in ${retryAfterSeconds} s`;
    return new NetcfgError(
      'FORGE_UNAVAILABLE',
      `${place.where} is rate-limiting the token (${status}: ${sentence}); ${wait}.`,
      { retryAfterSeconds },
    );
  }
  if (status === 401)
    return new NetcfgError(
      'FORGE_REFUSED',
      `${place.where} refused the token (401: ${sentence}); check GIT_FORGE_TOKEN.`,
    );
  if (status === 403)
    return new NetcfgError('FORGE_REFUSED', `${place.where} refused ${what} (403: ${sentence}); ${SCOPES}.`);
  if (status === 404) {
    const why = `404 on ${what}: ${sentence}`;
    return new NetcfgError(
      'FORGE_REFUSED',
      `${place.where} has no such repository, or the token cannot see it (${why}); check GIT_FORGE_REPO.`,
    );
  }
  if (status >= 500) {
    return new NetcfgError(
      'FORGE_UNAVAILABLE',
      `${place.where} failed on ${what} (${status}: ${sentence}); retry later.`,
      { retryAfterSeconds },
    );
  }
  return new NetcfgError('FORGE_REFUSED', `${place.where} refused ${what} (${status}: ${sentence}).`);
}

/** An answer that is not what the forge's API answers (not JSON, or not the shape documented). */
export function badAnswer(place: ForgePlace, what: string, why: string): NetcfgError {
  return new NetcfgError(
    'FORGE_REFUSED',
    `${place.where} answered ${what} with ${why}, which is not its API's answer; check GIT_FORGE_URL.`,
  );
}

/**
 * GitHub's primary limit is a 403 or 429 with `x-ratelimit-remaining: 0`, its secondary limit one
 * with `retry-after`; GitLab (and a proxy in front of Gitea) answers 429 with `retry-after`.
 */
function isRateLimited(answer: Answer): boolean {
  if (answer.status === 429) return true;
  return (
    answer.status === 403 && (answer.headers.get('x-ratelimit-remaining') === '0' || answer.headers.has('retry-after'))
  );
}

/** Whole seconds to wait: `retry-after` (seconds or a date), else when GitHub's or GitLab's limit resets. */
export function retryAfterOf(headers: Headers, now = Date.now()): number | undefined {
  const after = headers.get('retry-after')?.trim();
  if (after) {
    if (/^\d+$/.test(after)) return Number(after);
    const at = Date.parse(after);
    if (!Number.isNaN(at)) return Math.max(1, Math.ceil((at - now) / 1000));
  }
  const remaining = headers.get('x-ratelimit-remaining') ?? headers.get('ratelimit-remaining');
  const reset = headers.get('x-ratelimit-reset') ?? headers.get('ratelimit-reset');
  if (remaining === '0' && reset && /^\d+$/.test(reset.trim()))
    return Math.max(1, Number(reset) - Math.floor(now / 1000));
  return undefined;
}

/** The forge's own words: `message` (GitLab's may be a list or a map of lists), GitHub's `errors`, or the text. */
function sentenceOf(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text.trim() || 'no reason given';
  }
  const { message, error, errors } = (parsed ?? {}) as { message?: unknown; error?: unknown; errors?: unknown };
  const parts = [
    ...flatten(message ?? error),
    ...flatten(Array.isArray(errors) ? errors.map((e: { message?: unknown }) => e?.message) : []),
  ];
  return parts.join('; ') || 'no reason given';
}

function flatten(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(flatten);
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, v]) => flatten(v).map((s) => `${key} ${s}`));
  return [];
}

/** The forge's words of a failing answer, for the clients' "already exists" checks. */
export function wordsOf(answer: Answer): string {
  return sentenceOf(answer.text);
}
