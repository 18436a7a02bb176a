/**
 * RPC URLs often carry an API key: in the user-info (`https://user:key@host`), in the query
 * (`?apikey=...`), or as a path segment (`/v2/<key>`). Wherever netcfg shows a URL it did not just
 * receive from the client (logs, CLI output, probe errors), it shows it redacted: scheme, host,
 * port and the path's shape stay; user-info, every query value and any path segment that looks
 * like a key become `***`. A key in the host name (`<key>.rpc.example.com`) is not recognised.
 */

/** A path segment that looks like a secret: 16 or more characters of letters, digits, `-` or `_`, with a digit in it. */
const KEY_LIKE = /^(?=.*\d)[A-Za-z0-9_-]{16,}$/;

export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(not a URL)';
  }
  const userInfo = parsed.username !== '' || parsed.password !== '' ? '***@' : '';
  const path = parsed.pathname
    .split('/')
    .map((segment) => (KEY_LIKE.test(decodeURIComponentSafe(segment)) ? '***' : segment))
    .join('/');
  const query = [...parsed.searchParams.keys()].map((key) => `${encodeURIComponent(key)}=***`).join('&');
  return `${parsed.protocol}//${userInfo}${parsed.host}${path}${query === '' ? '' : `?${query}`}`;
}

function decodeURIComponentSafe(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
