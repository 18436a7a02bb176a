/**
 * The few JSON calls the thin GitLab and Gitea clients make: the API root joined with a path, the
 * forge's own auth header, JSON both ways, and a failing answer turned into netcfg's error (after
 * the caller had a look at it, for the "already exists" answers).
 */
import { answerError, badAnswer } from './forge-errors.js';
import { forgeFetch, type Answer, type ForgeLimits, type ForgePlace } from './forge-fetch.js';

export interface RestOptions {
  place: ForgePlace;
  /** The API root without a trailing slash. */
  apiRoot: string;
  auth: Record<string, string>;
  limits: ForgeLimits;
}

/** Sees a failing answer first; returns the error to throw instead of the usual one, or null. */
export type FailureHook = (answer: Answer) => Error | null;

export type RestCall = (method: string, path: string, body?: unknown, onFailure?: FailureHook) => Promise<unknown>;

export function restClient(options: RestOptions): RestCall {
  const { place, apiRoot, auth, limits } = options;
  return async (method, path, body, onFailure) => {
    const what = `${method} ${path.split('?')[0]}`;
    const headers: Record<string, string> = { ...auth, accept: 'application/json', 'user-agent': 'netcfg' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const init: RequestInit = { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
    const answer = await forgeFetch(place, `${apiRoot}${path}`, init, limits);
    if (answer.status < 200 || answer.status > 299) throw onFailure?.(answer) ?? answerError(place, what, answer);
    try {
      return JSON.parse(answer.text) as unknown;
    } catch {
      throw badAnswer(place, what, 'something that is not JSON');
    }
  };
}

/** A field of a forge's JSON object, checked to be what its API documents. */
export function field<T>(
  object: unknown,
  key: string,
  type: 'string' | 'number' | 'boolean' | 'object',
): T | undefined {
  const value = (object as Record<string, unknown> | null)?.[key];
  if (type === 'object') return value !== null && typeof value === 'object' ? (value as T) : undefined;
  return typeof value === type ? (value as T) : undefined;
}
