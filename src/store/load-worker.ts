/**
 * A worker of the first load: given the job once, it claims chunks of ids from the counter it
 * shares with the other threads, reads and parses each (YAML parsing is most of a start-up's
 * time) and sends its observations back; the main thread only applies them. 'done' once no
 * chunk is left.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DiskSync } from './disk-sync.js';
import type { NetworkId } from './network-id.js';
import { NetworkIndex } from './network-index.js';
import { claimChunk, type LoadJob, type LoadReport } from './parallel-load.js';
import type { UrlPolicy } from './url-rules.js';

const { root, policy } = workerData as { root: string; policy: UrlPolicy };
const sync = new DiskSync(root, new NetworkIndex(), policy);
const port = parentPort!;
port.once('message', (job: LoadJob) => {
  const listing = { files: new Set(job.files), linkedFamilies: new Set(job.linkedFamilies) };
  const send = (report: LoadReport): void => port.postMessage(report);
  for (let i = claimChunk(job.next, job.chunks.length); i >= 0; i = claimChunk(job.next, job.chunks.length)) {
    send({ chunk: i, observations: (job.chunks[i] as NetworkId[]).map((id) => sync.observeParsed(id, listing)) });
  }
  send('done');
});
