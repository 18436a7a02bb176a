/**
 * A worker of the first load: reads and parses its share of the networks (YAML parsing is most of
 * a start-up's time) and sends the observations back; the main thread only applies them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DiskSync } from './disk-sync.js';
import type { NetworkId } from './network-id.js';
import { NetworkIndex } from './network-index.js';
import type { UrlPolicy } from './url-rules.js';

const { root, ids, policy } = workerData as { root: string; ids: NetworkId[]; policy: UrlPolicy };
const sync = new DiskSync(root, new NetworkIndex(), policy);
parentPort?.postMessage(ids.map((id) => sync.observeParsed(id)));
