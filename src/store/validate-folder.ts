/**
 * Checks a whole config folder with exactly the code the server loads it with (file names, YAML,
 * schema, URL rules, duplicate .yml/.yaml ids), without starting anything. `netcfg validate` and
 * pull-request CI use it.
 */
import { DiskSync } from './index/disk-sync.js';
import { NetworkIndex, type InvalidFile } from './index/network-index.js';
import type { UrlPolicy } from './validation/url-rules.js';

export interface FolderReport {
  networks: number;
  problems: InvalidFile[];
}

export function validateFolder(root: string, policy: UrlPolicy): FolderReport {
  const index = new NetworkIndex();
  const sync = new DiskSync(root, index, policy);
  const rootProblem = sync.rootProblem();
  if (rootProblem) return { networks: 0, problems: [{ path: '.', line: 1, column: 1, error: rootProblem }] };
  index.beginBulk();
  const { ids, foreign } = sync.listTargets();
  for (const id of ids.values()) sync.apply(sync.observe(id));
  for (const [rel, reason] of foreign) sync.refreshForeign(rel, reason);
  return { networks: index.size, problems: index.invalidFiles() };
}
