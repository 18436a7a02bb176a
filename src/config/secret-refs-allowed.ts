/**
 * SECRET_REFS_ALLOWED: which environment variables each network's secret references may name, as
 * `<network glob>=<variable glob>[,<variable glob>...]` pairs separated by `;`
 * (`evm:*=ETH_*,ALCHEMY_*;solana:*=SOL_*`). A reference is resolved only when allowed, so a token
 * scoped to one family cannot pull another family's key, or any URL-shaped variable of the
 * process, into a network it may write. Unset: no reference resolves.
 */
import { ID_GLOB, matchesAny } from '../id-glob.js';
import type { SecretLookup } from '../store/index.js';

export class AllowListError extends Error {}

/** One pair: the networks it speaks for, and the variables they may name. */
export interface AllowedPair {
  networks: string;
  variables: string[];
}

/** A variable glob: a variable's name where `*` may stand for any run of its characters. */
const VARIABLE_GLOB = /^[A-Za-z_*][A-Za-z0-9_*]*$/;

const SYNTAX =
  'SECRET_REFS_ALLOWED must be <network glob>=<variable glob>[,<variable glob>...] pairs separated by ";" ' +
  '(for example evm:*=ETH_*,ALCHEMY_*;solana:*=SOL_*)';

/** The pairs of `raw`; empty pieces (a trailing `;`, the newline a mounted value ends in) are skipped. */
export function parseAllowList(raw: string | undefined): AllowedPair[] {
  const pairs: AllowedPair[] = [];
  for (const piece of (raw ?? '')
    .split(';')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const [networks = '', variables, ...more] = piece.split('=').map((p) => p.trim());
    const globs = (variables ?? '').split(',').map((v) => v.trim());
    if (
      more.length > 0 ||
      variables === undefined ||
      !ID_GLOB.test(networks) ||
      !globs.every((g) => VARIABLE_GLOB.test(g))
    ) {
      throw new AllowListError(`${SYNTAX}; "${piece}" is not.`);
    }
    pairs.push({ networks, variables: globs });
  }
  return pairs;
}

/** Whether `name` matches the glob (case as written: Linux's variables are case-sensitive). */
function matchesVariable(glob: string, name: string): boolean {
  return new RegExp(`^${glob.replace(/\*/g, '[A-Za-z0-9_]*')}$`).test(name);
}

/** Whether some pair lets some network name `name` (a relayer's key must not be such a variable). */
export function namedByAny(pairs: readonly AllowedPair[], name: string): boolean {
  return pairs.some((p) => p.variables.some((g) => matchesVariable(g, name)));
}

/**
 * The lookup references resolve through: a name is allowed when a pair whose network glob takes
 * the network lists a glob that takes the name, and `denied` (netcfg's own settings) does not;
 * only then is the environment read, so a refusal says nothing of whether the variable is set.
 */
export function allowedLookup(
  pairs: readonly AllowedPair[],
  env: Readonly<Record<string, string | undefined>>,
  denied: (name: string) => boolean,
): SecretLookup {
  return (networkId, name) => {
    const allowed =
      !denied(name) &&
      pairs.some((p) => matchesAny([p.networks], networkId) && p.variables.some((g) => matchesVariable(g, name)));
    return allowed ? { allowed: true, value: env[name]?.trim() } : { allowed: false };
  };
}
