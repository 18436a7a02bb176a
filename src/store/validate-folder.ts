/**
 * Checks a whole config folder with exactly the code the server loads it with (file names, YAML,
 * schema, URL rules, duplicate .yml/.yaml ids), without starting anything. `netcfg validate` and
 * pull-request CI use it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigFolder } from './files/config-folder.js';
import { Refresher } from './index/refresher.js';
import { NetworkIndex, type InvalidFile } from './index/network-index.js';
import type { NetworkRecord } from './network-record.js';
import { positionIn } from './validation/yaml-document.js';
import type { UrlPolicy } from './validation/url-rules.js';

export interface FolderReport {
  networks: number;
  problems: InvalidFile[];
  /** Every network served, for checks beyond the files (`validate --probe`). */
  records: NetworkRecord[];
  /** Where a JSON Pointer lands in a served file, for a problem found beyond the file. */
  positionOf(rel: string, pointer: string): { line: number; column: number };
}

export function validateFolder(root: string, policy: UrlPolicy): FolderReport {
  const index = new NetworkIndex();
  const folder = new ConfigFolder(root);
  const refresher = new Refresher(folder, index, policy);
  const state = folder.check();
  const rootProblem = state.ok ? null : state.problem;
  const positionOf = (rel: string, pointer: string) => positionIn(readFileSync(path.join(root, rel), 'utf8'), pointer);
  if (rootProblem)
    return { networks: 0, problems: [{ path: '.', line: 1, column: 1, error: rootProblem }], records: [], positionOf };
  index.beginBulk();
  // As the server's first load reads the folder (first-load.ts): its state and family links looked at once, not per file.
  const { ids, foreign } = refresher.listEntries(state);
  const load = { folder: state, cache: null, linkedFamilies: new Map<string, boolean>() };
  for (const id of ids.values()) refresher.apply(refresher.observe(id, load));
  for (const [rel, reason] of foreign) refresher.refreshForeign(rel, reason);
  const records = [...index.ids()].map((id) => index.get(id) as NetworkRecord);
  return { networks: index.size, problems: index.invalidFiles(), records, positionOf };
}
