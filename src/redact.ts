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
  return hideParts(url, secretSegment) ?? '***';
}

/** A path segment of a secret's value that its mask hides. */
function secretSegment(segment: string, last: boolean): boolean {
  return segment.length > 4 || (last && segment !== '');
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
 * URL, and in its error and the text its endpoint answered (genesis_hash, passphrase) with every
 * part the mask hides scrubbed (scrubText); where that cannot be sure, the error is a fixed
 * sentence and the answered text is left out.
 */
export function showAs<T extends { url: string; error: string | null }>(finding: T, shown: string): T {
  if (shown === finding.url) return finding;
  const parts = secretParts(finding.url);
  const scrub = (text: string): string | null => scrubText(text.split(finding.url).join(shown), parts);
  const out: Record<string, unknown> = {
    ...finding,
    url: shown,
    error: finding.error === null ? null : (scrub(finding.error) ?? UNSHOWN),
  };
  for (const key of ANSWERED) {
    if (typeof out[key] !== 'string') continue;
    const text = scrub(out[key] as string);
    if (text === null) delete out[key];
    else out[key] = text;
  }
  return out as T;
}

/** A finding's fields that hold the endpoint's own text, beside its error. */
const ANSWERED = ['genesis_hash', 'passphrase'];

/** Shorter than this, a hidden part may be an ordinary word (`rpc`, `mainnet` is not): text holding it is not shown at all. */
const SURE_LENGTH = 6;

/** The error shown in place of an endpoint's text that scrubText could not make sure of. */
export const UNSHOWN =
  "the endpoint's words are not shown: its URL is a secret, and a part of it is too short to be told from ordinary words";

/**
 * The parts of a secret's value that its mask (maskSecretUrl) hides, decoded: the user name and
 * password (and their Basic authorization), every query value, each hidden path segment and the
 * fragment. The whole value when it does not parse as a URL.
 */
export function secretParts(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [url];
  }
  const segments = parsed.pathname.split('/');
  const last = segments.findLastIndex((segment) => segment !== '');
  const hidden = segments.filter((segment, i) => secretSegment(segment, i === last));
  const parts = [parsed.username, parsed.password, ...hidden, parsed.hash.slice(1)].map(decodeURIComponentSafe);
  parts.push(...parsed.searchParams.values());
  // A client sends the user-info as `Authorization: Basic base64(user:password)`, which an endpoint may repeat.
  const [user, password] = [decodeURIComponentSafe(parsed.username), decodeURIComponentSafe(parsed.password)];
  if (user !== '' || password !== '') parts.push(Buffer.from(`${user}:${password}`).toString('base64'));
  return [...new Set(parts.filter((part) => part !== ''))].sort((a, b) => b.length - a.length);
}

/**
 * `text` with each of `parts` as `***`, found whatever the case and however it is written: as is,
 * percent-encoded (once or twice, any hex case, any mix), `+` for a space, JSON-escaped; a part's
 * first three characters or more just before `…` (where clip() cut the text) too. Null when a part
 * shorter than SURE_LENGTH is still in it: it may be an ordinary word, so the text cannot be shown.
 */
export function scrubText(text: string, parts: readonly string[]): string | null {
  let out = text;
  for (const part of parts) {
    const chars = [...part].map(charForms);
    const whole = new RegExp(chars.join(''), 'gi');
    const cut = new RegExp(
      `${chars.slice(0, 3).join('')}${chars.slice(3).reduceRight((inner, c) => `(?:${c}${inner})?`, '')}…`,
      'gi',
    );
    if (part.length < SURE_LENGTH) {
      if (whole.test(out) || cut.test(out)) return null;
      continue;
    }
    out = out.replace(whole, '***').replace(cut, '***…');
  }
  return out;
}

/** `text` cut to `max` characters, marked with `…` where it was cut, so that scrubText sees a part cut short. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** How one character of a secret may be written in text: itself, percent-encoded once or twice, `+` for a space, JSON-escaped. */
function charForms(char: string): string {
  const hex = [...new TextEncoder().encode(char)].map((byte) => byte.toString(16).padStart(2, '0'));
  const forms = [
    char.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'),
    hex.map((h) => `%${h}`).join(''),
    hex.map((h) => `%25${h}`).join(''),
  ];
  if (char === ' ') forms.push('\\+');
  if (char === '"' || char === '\\') forms.push(`\\\\\\${char}`);
  return `(?:${forms.join('|')})`;
}
