/**
 * A resolved relayer network as a netcfg network file: its fields in the relayer struct's order,
 * each RPC URL in the form it was written (a string, or `{url, weight}`; `{url}` gets the
 * relayer's default weight, 100, since netcfg's object form names both), and a comment saying
 * where it came from.
 */
import { isSecretRef } from '../../store/index.js';
import { Document } from 'yaml';
import type { ResolvedNetwork } from './resolve.js';

/** The relayer's weight for `{url}` without one (constants DEFAULT_RPC_WEIGHT). */
const DEFAULT_WEIGHT = 100;

export function networkYamlOf(network: ResolvedNetwork, sourceName: string): string {
  const fields = { ...network.fields };
  if (Array.isArray(fields.rpc_urls)) fields.rpc_urls = fields.rpc_urls.map(writtenEntry);
  const doc = new Document(fields);
  const inherits = network.parent === null ? '' : `, inheriting from "${network.parent}"`;
  doc.commentBefore = ` Imported from ${sourceName} (the relayer's ${network.type} network "${network.name}"${inherits}) by netcfg import relayer.`;
  return doc.toString({ lineWidth: 0 });
}

function writtenEntry(entry: unknown): unknown {
  if (typeof entry === 'string' || isSecretRef(entry)) return entry; // a reference of PR #517 stays one
  const { url, weight } = entry as { url: string; weight?: number | null };
  return { url, weight: weight ?? DEFAULT_WEIGHT };
}
