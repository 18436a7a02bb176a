/**
 * The tokens the server accepts now: API_KEY (one admin token named `api-key`) and API_TOKENS_FILE's
 * entries, replaced whole when the file changes (tokens-follow.ts). Both are found by the SHA-256 of
 * the presented token (API_KEY's compared first, the file's looked up in a Map): the comparison's
 * timing can only tell about a digest nobody can choose, so it leaks nothing, and a request costs
 * the same with twenty thousand entries as with two.
 */
import { hash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Role, TokenEntry } from './tokens-file.js';

/** Who a request is, once its token is known. */
export interface Principal {
  name: string;
  role: Role;
  /** Globs over the ids it may see; null: every network. */
  networks: string[] | null;
  revealSecrets: boolean;
}

/** Entries added to a new set per turn of the event loop, so requests are answered between turns. */
const SLICE = 2000;

const RANK: Record<Role, number> = { read: 1, propose: 2, write: 3, admin: 4 };

/** Whether `principal`'s role includes `needed` (admin includes write, write includes propose, propose includes read). */
export function mayAct(principal: Principal, needed: Role): boolean {
  return RANK[principal.role] >= RANK[needed];
}

interface Held {
  principal: Principal;
  /** The first day it is refused, as a UTC midnight in ms; Infinity: never. */
  refusedFrom: number;
}

export class TokenSet {
  private readonly fromKey: (Held & { digest: string }) | null;
  /** The file's, by hex digest; rebuilt whole by replace(). */
  private byDigest = new Map<string, Held>();
  /** Bumped by each replace: a sliced build that is no longer the latest is dropped, never swapped in. */
  private generation = 0;

  /**
   * `apiKey`: API_KEY, when set (it does not reveal secrets: it is the key every client held before
   * tokens, so revealing to it would hand provider keys to all of them); `now`: the clock expiry is judged by (a test may hand in its own). */
  constructor(
    entries: TokenEntry[],
    apiKey: string | undefined,
    private readonly now: () => number = Date.now,
  ) {
    const principal: Principal = { name: 'api-key', role: 'admin', networks: null, revealSecrets: false };
    this.fromKey = apiKey === undefined ? null : { digest: digest(apiKey), principal, refusedFrom: Infinity };
    this.replace(entries);
  }

  /** The file's entries, after it parsed whole; an empty list once its grace is over (API_KEY stays). */
  replace(entries: TokenEntry[]): void {
    this.generation++;
    const byDigest = new Map<string, Held>();
    for (const e of entries) add(byDigest, e);
    this.byDigest = byDigest;
  }

  /** replace() a slice at a time (a file of tens of thousands of tokens); the set before holds until the new one is whole. */
  async replaceInSlices(entries: TokenEntry[]): Promise<void> {
    const generation = ++this.generation;
    const byDigest = new Map<string, Held>();
    for (let from = 0; from < entries.length; from += SLICE) {
      if (from > 0) await nextTurn();
      if (generation !== this.generation) return;
      for (const e of entries.slice(from, from + SLICE)) add(byDigest, e);
    }
    this.byDigest = byDigest;
  }

  /** How many tokens are accepted (readiness shows the count, never a name). */
  get size(): number {
    return this.byDigest.size + (this.fromKey ? 1 : 0);
  }

  /** The principal of `token`, or null for a token unknown or expired. API_KEY first, as before. */
  authenticate(token: string): Principal | null {
    const presented = digest(token);
    const found = this.fromKey?.digest === presented ? this.fromKey : this.byDigest.get(presented);
    return found !== undefined && this.now() < found.refusedFrom ? found.principal : null;
  }
}

function add(byDigest: Map<string, Held>, e: TokenEntry): void {
  const principal = { name: e.name, role: e.role, networks: e.networks, revealSecrets: e.revealSecrets };
  byDigest.set(e.sha256, {
    principal,
    refusedFrom: e.expires === null ? Infinity : Date.parse(`${e.expires}T00:00:00Z`),
  });
}

/**
 * The hex digest in one call, as a string: a read pays this once, and it is the most of its token check (a Buffer
 * digest and its hex cost 3 us here, the hex string 0.9 us).
 */
function digest(token: string): string {
  return hash('sha256', token);
}
