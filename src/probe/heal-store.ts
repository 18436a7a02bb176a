/**
 * What self-healing (auto-heal.ts) needs of netcfg, and how main gives it the store: through its
 * public methods only, as any client writes: a PATCH of rpc_urls with If-Match, as its own actor.
 */
import { NetcfgError } from '../errors.js';
import { healNotesOf, PROBER, RPC_AUTO_TRAILER, type HealNote } from './heal-notes.js';
import { type WriteNote, networkOf, writtenNetworkOf, type NetworkStore } from '../store/index.js';

export interface HealStore {
  /** The network served now: its ETag, rpc_urls as served (`{url, weight}`, a secret masked) and as written. */
  network(id: string): { etag: string; served: Array<{ url: string; weight: number }>; written: unknown[] } | null;
  /** Whether the network's file on disk is invalid now (its last good version served): asked only before a change. */
  invalid(id: string): boolean;
  /** Writes `rpcUrls` if the network is still at `etag`; 'moved' when it is not (412), or is gone (404). */
  write(id: string, rpcUrls: unknown[], etag: string, note: WriteNote): Promise<'written' | 'moved'>;
  /** The self-healing's notes (heal-notes.ts) of the prober's commits to the network's file since anyone else's, newest first. */
  notes(id: string): Promise<HealNote[]>;
}

export function healStoreOf(store: NetworkStore): HealStore {
  return {
    network(id) {
      let record;
      try {
        record = store.get(id);
      } catch {
        return null; // not served (any more)
      }
      return {
        etag: record.etag,
        served: networkOf(record).rpc_urls as Array<{ url: string; weight: number }>,
        written: writtenNetworkOf(record).rpc_urls as unknown[],
      };
    },
    invalid(id) {
      const rel = store.get(id).path;
      return store.readiness().components.index.invalid_files.some((f) => f.path === rel);
    },
    async write(id, rpcUrls, etag, note) {
      try {
        await store.update(id, { rpc_urls: rpcUrls }, etag, PROBER, { note });
        return 'written';
      } catch (err) {
        if (err instanceof NetcfgError && (err.code === 'PRECONDITION_FAILED' || err.code === 'NETWORK_NOT_FOUND'))
          return 'moved';
        throw err;
      }
    },
    async notes(id) {
      const notes: HealNote[] = [];
      for (let skip = 0; ; skip += 50) {
        const { commits } = await store.history(id, skip, 50, [RPC_AUTO_TRAILER]);
        for (const commit of commits) {
          if (commit.actor !== `${PROBER.kind}:${PROBER.name}`) return notes;
          notes.push(...healNotesOf([commit]));
        }
        if (commits.length < 50) return notes;
      }
    },
  };
}
