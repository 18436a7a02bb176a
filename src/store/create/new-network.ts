/**
 * A new network's file: its fields checked with the loader's own rules (a 400 with pointers for a
 * bad one), written as YAML under a comment saying where it came from, and put in place without
 * ever replacing a file: a temp file written and fsynced, then hard-linked to the network's path,
 * which fails when anything is there (EEXIST), so two creators racing cannot both win.
 */
import { linkSync, mkdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { NetcfgError } from '../../errors.js';
import { candidatesOf, relativePathOf, TEMP_DIR, type NetworkId } from '../files/layout.js';
import { tempPathFor } from '../files/temp-files.js';
import type { NetworkRecord } from '../network-record.js';
import { parseNetworkFile } from '../validation/network-file.js';
import { validateNetworkData } from '../validation/network-rules.js';
import type { UrlPolicy } from '../validation/url-rules.js';
import { realDisk, type DiskSteps } from '../write/disk-steps.js';

/** The order a reader expects; fields not named here follow in the order given. */
const FIELD_ORDER = [
  'rpc_urls',
  'chain_id',
  'passphrase',
  'genesis_hash',
  'horizon_url',
  'symbol',
  'explorer_urls',
  'average_blocktime_ms',
  'required_confirmations',
  'is_testnet',
  'tags',
  'features',
];

export interface NewNetwork {
  rel: string;
  text: string;
  record: NetworkRecord;
}

/** The file of network `id` holding `fields` under `comment` (a line each); VALIDATION_FAILED with pointers when invalid. */
export function newNetworkText(
  id: NetworkId,
  fields: Record<string, unknown>,
  comment: string[],
  policy: UrlPolicy,
): NewNetwork {
  const details = validateNetworkData(fields, id, policy);
  if (details.length > 0)
    throw new NetcfgError(
      'VALIDATION_FAILED',
      `The network is invalid: ${details[0]?.message}${details.length > 1 ? ` (and ${details.length - 1} more)` : ''}; nothing was written.`,
      { details },
    );
  const ordered: Record<string, unknown> = {};
  for (const key of [...FIELD_ORDER, ...Object.keys(fields)])
    if (fields[key] !== undefined && !(key in ordered)) ordered[key] = fields[key];
  const head = comment.flatMap((line) => line.split('\n')).map((line) => `# ${line}`.trimEnd());
  const text = `${head.join('\n')}${head.length > 0 ? '\n' : ''}${stringify(ordered, { lineWidth: 0 })}`;
  const rel = relativePathOf(id, '.yaml');
  const outcome = parseNetworkFile(text, id, rel, policy);
  if (!outcome.ok)
    throw new NetcfgError(
      'VALIDATION_FAILED',
      `The network would not load: ${outcome.problems[0]?.message}; nothing was written.`,
    );
  return { rel, text, record: outcome.record };
}

/** NETWORK_EXISTS when a file of `id` (`.yaml` or `.yml`) is in the folder at `realRoot`. */
export function requireNew(realRoot: string, id: NetworkId): void {
  const there = candidatesOf(id).find(({ rel }) => existsSync(path.join(realRoot, rel)));
  if (there) throw exists(id, there.rel);
}

function exists(id: NetworkId, rel: string): NetcfgError {
  return new NetcfgError('NETWORK_EXISTS', `${id.id} exists already (${rel}); PATCH it instead. Nothing was written.`);
}

/**
 * Puts `text` at `<realRoot>/<rel>` unless a file of `id` is there: a durable temp file in `.tmp/`,
 * hard-linked into place (EEXIST: someone was first), then removed; the family folder is fsynced.
 */
export async function createFile(fs: DiskSteps, realRoot: string, id: NetworkId, made: NewNetwork): Promise<string> {
  requireNew(realRoot, id);
  const abs = path.join(realRoot, made.rel);
  const tempDir = path.join(realRoot, TEMP_DIR);
  mkdirSync(path.dirname(abs), { recursive: true });
  mkdirSync(tempDir, { recursive: true });
  const tmp = tempPathFor(abs, tempDir);
  try {
    await fs.writeNewDurable(tmp, made.text, 0o644);
    linkSync(tmp, abs);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST' && existsSync(abs)) throw exists(id, made.rel);
    throw err;
  } finally {
    await fs.unlink(tmp).catch(() => undefined);
  }
  await fs.fsyncDir(path.dirname(abs));
  return abs;
}

/** newNetworkText and createFile for a folder no server holds (`netcfg add`): the path written. */
export async function writeNewNetwork(
  root: string,
  id: NetworkId,
  fields: Record<string, unknown>,
  comment: string[],
  policy: UrlPolicy,
): Promise<string> {
  return createFile(realDisk, path.resolve(root), id, newNetworkText(id, fields, comment, policy));
}

/** What keeps `fields` from being network `id`'s file (schema, path-derived fields, URL rules), as pointers. */
export function networkProblems(id: NetworkId, fields: Record<string, unknown>, policy: UrlPolicy) {
  return validateNetworkData(fields, id, policy);
}
