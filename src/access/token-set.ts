/**
 * The tokens the server accepts now: API_KEY (one admin token named `api-key`) and API_TOKENS_FILE's
 * entries, replaced whole when the file changes (tokens-watch.ts). A token is checked by its SHA-256
 * against every entry in constant time: each comparison runs, whatever matched before, so the
 * answer's timing says nothing of which entry is near.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Role, TokenEntry } from './tokens-file.js';

/** Who a request is, once its token is known. */
export interface Principal {
  name: string;
  role: Role;
  /** Globs over the ids it may see; null: every network. */
  networks: string[] | null;
  revealSecrets: boolean;
}

const RANK: Record<Role, number> = { read: 1, write: 2, admin: 3 };

/** Whether `principal`'s role includes `needed` (admin includes write, write includes read). */
export function mayAct(principal: Principal, needed: Role): boolean {
  return RANK[principal.role] >= RANK[needed];
}

interface Held {
  digest: Buffer;
  principal: Principal;
  /** The first day it is refused, as a UTC midnight in ms; Infinity: never. */
  refusedFrom: number;
}

export class TokenSet {
  private readonly fromKey: Held[];
  /** API_KEY's and the file's, checked in this order; rebuilt by replace(), so a request allocates nothing. */
  private all: Held[] = [];

  /**
   * `apiKey`: API_KEY, when set (it does not reveal secrets: it is the key every client held before
   * tokens, so revealing to it would hand provider keys to all of them); `now`: the clock expiry is judged by (a test may hand in its own). */
  constructor(
    entries: TokenEntry[],
    apiKey: string | undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.fromKey = apiKey === undefined ? [] : [{ digest: digest(apiKey), principal: { name: 'api-key', role: 'admin', networks: null, revealSecrets: false }, refusedFrom: Infinity }];
    this.replace(entries);
  }

  /** The file's entries, after it changed and parsed whole (a broken file never gets here). */
  replace(entries: TokenEntry[]): void {
    const held = entries.map((e) => ({
      digest: Buffer.from(e.sha256, 'hex'),
      principal: { name: e.name, role: e.role, networks: e.networks, revealSecrets: e.revealSecrets },
      refusedFrom: e.expires === null ? Infinity : Date.parse(`${e.expires}T00:00:00Z`),
    }));
    this.all = [...this.fromKey, ...held];
  }

  /** How many tokens are accepted (readiness shows the count, never a name). */
  get size(): number {
    return this.all.length;
  }

  /** The principal of `token`, or null for a token unknown or expired. */
  authenticate(token: string): Principal | null {
    const presented = digest(token);
    let found: Held | null = null;
    for (const held of this.all) {
      if (timingSafeEqual(presented, held.digest) && found === null) found = held;
    }
    return found !== null && this.now() < found.refusedFrom ? found.principal : null;
  }
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}
