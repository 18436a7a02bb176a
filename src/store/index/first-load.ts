/**
 * The first full read of the config folder, at start: leftover temp files of a killed process
 * swept, then every network read, parsed and validated into the index (from the index cache where
 * a file is unchanged), yielding to the event loop between chunks so /ready answers meanwhile,
 * and every path that is not a network reported.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { ConfigFolder } from '../files/config-folder.js';
import { sweepTempFiles } from '../files/temp-files.js';
import type { Refresher } from './refresher.js';
import type { CachedFile } from './index-cache.js';
import type { NetworkIndex } from './network-index.js';

/** Files read between two yields of the first load, so /ready answers 503 meanwhile. */
const LOAD_CHUNK = 250;

export async function firstLoad(
  folder: ConfigFolder,
  refresher: Refresher,
  index: NetworkIndex,
  cache: Map<string, CachedFile> | null,
): Promise<void> {
  const state = folder.check();
  if (state.ok) sweepTempFiles(state.real);
  index.beginBulk();
  const { ids, foreign } = refresher.listEntries(state);
  const load = { folder: state, cache, linkedFamilies: new Map<string, boolean>() };
  let read = 0;
  for (const id of ids.values()) {
    refresher.apply(refresher.observe(id, load));
    if (++read % LOAD_CHUNK === 0) await yieldToLoop();
  }
  for (const [rel, reason] of foreign) refresher.refreshForeign(rel, reason);
}
