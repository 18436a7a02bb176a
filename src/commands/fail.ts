/**
 * How a netcfg command stops on bad input: one line on stderr, `netcfg: <sentence>`, and exit 2
 * (1 for a failure that is not the caller's), so scripts tell a usage error from a found problem.
 */
import { ConfigError, policyFromEnv } from '../config/index.js';

export function fail(message: string, code = 2): never {
  process.stderr.write(`netcfg: ${message}\n`);
  process.exit(code);
}

/** The RPC URL rules of the environment, or the start refused with the sentence saying why. */
export function policyOrFail(env: Record<string, string | undefined>): ReturnType<typeof policyFromEnv> {
  try {
    return policyFromEnv(env);
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
}
