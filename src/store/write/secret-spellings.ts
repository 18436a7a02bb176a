/**
 * The plain-value guard's eye: whether a URL a PATCH writes out holds a secret netcfg knows, in any
 * spelling. A URL holds one when, normalised, it is a secret's value (scheme and host in any case, a
 * default port, doubled or trailing slashes, percent-encoding), or when any of its parts (user-info,
 * a path segment, a query name or value, the fragment, a host label), decoded and in any case, is a
 * secret part of one: its user-info, a query value, or a path segment the mask hides, when it is
 * key-like (see keyLike). Parts are compared whole, so an honest URL sharing a word with a secret's
 * path (`/v2/`, `/mainnet/`) is not refused.
 */

/** A secret part long and odd enough to be a key rather than a word: 8+ characters with a digit or a capital, or 20+. */
function keyLike(part: string): boolean {
  return (part.length >= 8 && /[0-9A-Z]/.test(part)) || part.length >= 20;
}

/** `text` percent-decoded until it stops changing (a twice-encoded key is still the key); malformed escapes stay. */
function decoded(text: string): string {
  let current = text;
  for (let i = 0; i < 3; i++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      next = current.replace(/%[0-9a-f]{2}/gi, (hex) => String.fromCharCode(parseInt(hex.slice(1), 16)));
    }
    if (next === current) break;
    current = next;
  }
  return current;
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** One spelling for all the spellings of a URL, or null when it does not parse. */
function normalised(url: string): string | null {
  const u = parse(url.trim());
  if (u === null) return null;
  const segments = u.pathname
    .split('/')
    .filter((s) => s !== '')
    .map(decoded);
  const query = [...u.searchParams].map(([k, v]) => `${decoded(k)}=${decoded(v)}`).join('&');
  return `${u.protocol}//${decoded(u.username)}:${decoded(u.password)}@${u.host}/${segments.join('/')}?${query}`.toLowerCase();
}

/** The parts of a secret's value that are its secret (what maskSecretUrl hides), key-like only, lower-cased. */
function secretParts(value: string): string[] {
  const u = parse(value);
  if (u === null) return [];
  const segments = u.pathname.split('/');
  const last = segments.findLastIndex((s) => s !== '');
  const hidden = segments.filter((s, i) => s.length > 4 || (i === last && s !== ''));
  return [u.username, u.password, ...hidden, ...u.searchParams.values()]
    .map(decoded)
    .filter(keyLike)
    .map((p) => p.toLowerCase());
}

/** Every part of `url` a secret part could hide in, decoded and lower-cased; a URL that does not parse is cut at its delimiters. */
function partsOf(url: string): string[] {
  const u = parse(url);
  const raw = decoded(url).split(/[/?#&@=:\s]/);
  if (u === null) return raw.map((p) => p.toLowerCase());
  const structured = [u.username, u.password, ...u.pathname.split('/'), ...u.hostname.split('.'), u.hash.slice(1)].map(
    decoded,
  );
  const query = [...u.searchParams].flatMap(([k, v]) => [decoded(k), decoded(v)]);
  return [...structured, ...query, ...raw].map((p) => p.toLowerCase());
}

export class KnownSecrets {
  private readonly wholes = new Map<string, string>();
  private readonly parts = new Map<string, string>();

  /** `values`: each secret's value -> the variable it comes from. */
  constructor(values: ReadonlyMap<string, string>) {
    for (const [value, name] of values) {
      const whole = normalised(value);
      if (whole !== null) this.wholes.set(whole, name);
      for (const part of secretParts(value)) this.parts.set(part, name);
    }
  }

  /** The variable whose secret `url` holds, whole or in part, in any spelling; null when it holds none. */
  heldIn(url: string): string | null {
    const whole = normalised(url);
    const named = whole === null ? undefined : this.wholes.get(whole);
    if (named !== undefined) return named;
    if (this.parts.size === 0) return null;
    for (const part of partsOf(url)) {
      const name = this.parts.get(part);
      if (name !== undefined) return name;
    }
    return null;
  }
}
