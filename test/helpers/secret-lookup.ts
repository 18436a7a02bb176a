/**
 * A secret lookup for tests that speak to the store directly: every name allowed for every network
 * (as SECRET_REFS_ALLOWED `*:*=*` would, less netcfg's own settings), its value taken from `env`.
 */
import type { SecretLookup } from '../../src/store/validation/secret-refs.js';

export function allowEvery(env: Readonly<Record<string, string | undefined>>): SecretLookup {
  return (_networkId, name) => ({ allowed: true, value: env[name] });
}
