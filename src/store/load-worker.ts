/**
 * A worker of the first load: takes chunks of ids from the main thread, reads and parses them
 * (YAML parsing is most of a start-up's time) and sends the observations back; the main thread
 * only applies them. It says 'ready' once its modules are loaded, then answers each chunk.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DiskSync } from './disk-sync.js';
import { NetworkIndex } from './network-index.js';
import type { LoadChunk } from './parallel-load.js';
import type { UrlPolicy } from './url-rules.js';

const { root, policy } = workerData as { root: string; policy: UrlPolicy };
const sync = new DiskSync(root, new NetworkIndex(), policy);
const port = parentPort!;
port.on('message', (chunk: LoadChunk) => {
  const listing = { files: new Set(chunk.files), linkedFamilies: new Set(chunk.linkedFamilies) };
  port.postMessage(chunk.ids.map((id) => sync.observeParsed(id, listing)));
});
port.postMessage('ready');
