/**
 * API_TOKENS_FILE: who may read, change and see what. The file holds each token's SHA-256, never
 * the token (`netcfg token new` prints both once):
 *
 *   tokens:
 *     - name: relayer-eu            # shown in logs, commits, history, the console
 *       sha256: "<hex SHA-256 of the token>"
 *       role: read                  # read | propose | write | admin
 *       networks: ["evm:*"]         # optional: only these ids (globs); all when absent
 *       reveal_secrets: false       # optional
 *       expires: 2027-06-30         # optional: refused from that day on (UTC)
 *
 * Every problem is data with line and column; the caller keeps the last good set, or refuses a start.
 */
import { ID_GLOB } from '../id-glob.js';
import { readSettingsList, type Located } from '../settings-list.js';
import { OPERATOR_TOKENS } from '../store/index.js';

export const ROLES = ['read', 'propose', 'write', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export interface TokenEntry {
  name: string;
  /** The token's SHA-256, lower-case hex. */
  sha256: string;
  role: Role;
  /** Globs over network ids; null: every network. */
  networks: string[] | null;
  revealSecrets: boolean;
  /** The first day (UTC, `YYYY-MM-DD`) the token is refused; null: never. */
  expires: string | null;
}

export type TokensProblem = Located;

const NAME = /^[a-z0-9][a-z0-9_.-]{0,62}$/;
const SHA256 = /^[0-9a-f]{64}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const KEYS = ['name', 'sha256', 'role', 'networks', 'reveal_secrets', 'expires'];

export function parseTokensFile(text: string): { tokens: TokenEntry[]; problems: TokensProblem[] } {
  const { entries, problems, at } = readSettingsList(text, {
    list: 'tokens',
    known: KEYS,
    nonEmpty: false,
    noList: 'the file needs a list `tokens:` of {name, sha256, role}',
    notAnEntry: 'a token is a mapping of name, sha256, role and (optionally) networks, reveal_secrets, expires',
    // The key is not echoed: it could be a token pasted in the wrong place, and readiness shows this.
    unknown: () =>
      `this key is not a setting of a token (${KEYS.join(', ')}); the token itself never goes in this file, only its sha256`,
  });
  const tokens: TokenEntry[] = [];
  // Sets, not a scan of what came before: a file of tens of thousands of tokens parses in linear time.
  const names = new Set<string>();
  const hashes = new Set<string>();
  for (const { node: item, get: field, hasUnknown } of entries) {
    const before = problems.length;
    const name = field('name');
    const sha = field('sha256');
    const role = field('role');
    const networks = field('networks');
    const reveal = field('reveal_secrets');
    const expires = field('expires');
    if (typeof name.value !== 'string' || !NAME.test(name.value))
      problems.push(
        at(
          name.node ?? item,
          'name must be lower-case letters, digits, ".", "-" or "_" (it is shown in logs and commits)',
        ),
      );
    else if (names.has(name.value)) problems.push(at(name.node, 'this name is used by another token too'));
    else if (OPERATOR_TOKENS.has(name.value))
      problems.push(
        at(name.node, "this name is netcfg's own (API_KEY's holder, or the keyless caller); choose another"),
      );
    if (typeof sha.value !== 'string' || !SHA256.test(sha.value))
      problems.push(
        at(
          sha.node ?? item,
          "sha256 must be the 64 lower-case hex digits of the token's SHA-256 (netcfg token new prints it)",
        ),
      );
    else if (hashes.has(sha.value))
      problems.push(at(sha.node, "this sha256 is another token's too: one token, one name"));
    if (!(ROLES as readonly unknown[]).includes(role.value))
      problems.push(at(role.node ?? item, `role must be one of ${ROLES.join(', ')}`));
    if (
      networks.value !== undefined &&
      (!Array.isArray(networks.value) ||
        networks.value.length === 0 ||
        networks.value.some((g) => typeof g !== 'string' || !ID_GLOB.test(g)))
    ) {
      problems.push(at(networks.node, 'networks must be a non-empty list of ids or globs such as "evm:*"'));
    }
    if (reveal.value !== undefined && typeof reveal.value !== 'boolean')
      problems.push(at(reveal.node, 'reveal_secrets must be true or false'));
    if (
      expires.value !== undefined &&
      (typeof expires.value !== 'string' ||
        !DAY.test(expires.value) ||
        Number.isNaN(Date.parse(`${expires.value}T00:00:00Z`)))
    ) {
      problems.push(at(expires.node, 'expires must be a day, YYYY-MM-DD (the token is refused from that day on, UTC)'));
    }
    if (problems.length > before || hasUnknown) continue;
    names.add(name.value as string);
    hashes.add(sha.value as string);
    tokens.push({
      name: name.value as string,
      sha256: sha.value as string,
      role: role.value as Role,
      networks: (networks.value as string[] | undefined) ?? null,
      revealSecrets: reveal.value === true,
      expires: (expires.value as string | undefined) ?? null,
    });
  }
  return { tokens: problems.length > 0 ? [] : tokens, problems };
}

/** The parser as the followed file runs it in its thread (follow/parse-thread.ts): the tokens, or the problems. */
export function tokensOfText(text: string): { value: TokenEntry[]; problems: TokensProblem[] } {
  const { tokens, problems } = parseTokensFile(text);
  return { value: tokens, problems };
}
