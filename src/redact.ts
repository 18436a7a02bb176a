/**
 * Credentials in URLs, hidden by one rule wherever netcfg shows a URL or a message that may hold
 * one (logs, readiness, error answers, git's messages, probe findings). RPC URLs often carry an API
 * key: in the user-info (`https://user:key@host`), in the query (`?apikey=...`), or as a path
 * segment (`/v2/<key>`); a git remote carries a token the same ways. Scheme, host, port and the
 * path's shape stay; user-info, every query value and any path segment that looks like a key become
 * `***`. A key in the host name (`<key>.rpc.example.com`) is not recognised.
 */

/** A path segment that looks like a secret: 16 or more characters of letters, digits, `-` or `_`, with a digit in it. */
const KEY_LIKE = /^(?=.*\d)[A-Za-z0-9_-]{16,}$/;
/** A URL inside free text (git's stderr, an error message): a scheme, `://`, and everything up to a space or a quote. */
const URL_IN_TEXT = /\b([a-z][a-z0-9+.-]*):\/\/[^\s'"<>`]+/gi;

export function redactUrl(url: string): string {
  return hideParts(url, (segment) => KEY_LIKE.test(decodeURIComponentSafe(segment))) ?? '(not a URL)';
}

/**
 * Every URL in `text` redacted as above. One that does not parse as a URL (a password holding a
 * `/` makes the host unreadable) keeps only its scheme: what follows may be a secret.
 */
export function redactText(text: string): string {
  return text.replace(URL_IN_TEXT, (url, scheme: string) => {
    const shown = redactUrl(url);
    return shown === '(not a URL)' ? `${scheme}://***` : shown;
  });
}

function decodeURIComponentSafe(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * A URL that came from a secret reference, as everyone but a revealing token sees it: stricter than
 * redactUrl, since the whole value is the secret: user-info, every query value, the last path
 * segment and every one longer than four characters become `***`, so `/v2/<key>` is `/v2/***`
 * whatever the key's shape. The host stays, as it does for every URL shown.
 */
export function maskSecretUrl(url: string): string {
  return hideParts(url, (segment, last) => segment.length > 4 || (last && segment !== '')) ?? '***';
}

/** `url` with user-info, every query value and each path segment `hide` picks (`last`: the last one not empty) as `***`; null when it does not parse. */
function hideParts(url: string, hide: (segment: string, last: boolean) => boolean): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const userInfo = parsed.username !== '' || parsed.password !== '' ? '***@' : '';
  const segments = parsed.pathname.split('/');
  const last = segments.findLastIndex((segment) => segment !== '');
  const path = segments.map((segment, i) => (hide(segment, i === last) ? '***' : segment)).join('/');
  const query = [...parsed.searchParams.keys()].map((key) => `${encodeURIComponent(key)}=***`).join('&');
  return `${parsed.protocol}//${userInfo}${parsed.host}${path}${query === '' ? '' : `?${query}`}`;
}

/**
 * A finding about `finding.url` as it may be shown: under `shown` (a secret's value masked), in its
 * URL and wherever its error repeats the URL.
 */
export function showAs<T extends { url: string; error: string | null }>(finding: T, shown: string): T {
  if (shown === finding.url) return finding;
  return { ...finding, url: shown, error: finding.error === null ? null : finding.error.split(finding.url).join(shown) };
}
