/**
 * Several built servers started at once, all or none: when one does not start (a deadline passed on a loaded
 * machine, a bad setting), the ones that did are stopped before the error is thrown. Left running, they would
 * keep writing into folders the test's cleanup is removing, and keep mocha alive.
 */
import { startChild, type ChildServer } from './child-server.js';

export async function startChildren(
  envs: Array<Record<string, string>>,
  options?: Parameters<typeof startChild>[1],
): Promise<ChildServer[]> {
  const started = await Promise.allSettled(envs.map((env) => startChild(env, options)));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  if (!failed) return servers;
  await Promise.all(servers.map((s) => s.stop('SIGKILL')));
  throw failed.reason;
}
