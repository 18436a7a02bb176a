/**
 * Globs over network ids (`evm:*`, `solana:mainnet-beta`, `*:*-testnet`): `*` stands for any run of
 * the characters an id part may hold. One reading for every scope: a relayer's (RELAYER_SYNC_FILE)
 * and a token's (API_TOKENS_FILE).
 */

/** What a glob may be: an id whose parts may hold `*`. */
export const ID_GLOB = /^[a-z0-9*][a-z0-9_*-]*:[a-z0-9*][a-z0-9_*-]*$/;

/** Whether `id` is matched by any of `globs`. */
export function matchesAny(globs: readonly string[], id: string): boolean {
  return globs.some((glob) => new RegExp(`^${glob.replace(/\*/g, '[a-z0-9_:-]*')}$`).test(id));
}
