/**
 * `netcfg export relayer [DIR] --out <OUT>`: the networks of a config folder, read with the
 * server's own loader, as the relayer's networks files (relayer/format/export.ts): `OUT/<type>.json`
 * per type, or one document on stdout (`--out -`). A file that is not a valid network is left out
 * and said, like every other thing the relayer would refuse.
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { relayerExport, type RelayerExport } from '../relayer/format/export.js';
import { RELAYER_TYPES } from '../relayer/format/relayer-types.js';
import { writtenNetworkOf } from '../store/network-record.js';
import { validateFolder } from '../store/validate-folder.js';
import type { UrlPolicy } from '../store/validation/url-rules.js';

/**
 * `resolveSecrets`: each secret reference's value in its place (relayer v1.8 cannot read references
 * in rpc_urls; its open PR #517 can). Without it, `notes` names each network that holds one.
 */
export function exportFolder(dir: string, policy: UrlPolicy, resolveSecrets = false): RelayerExport & { notes: string[] } {
  const report = validateFolder(dir, policy);
  const records = [...report.records].sort((a, b) => (a.id < b.id ? -1 : 1));
  const exported = relayerExport(records.map((r) => writtenNetworkOf(r, resolveSecrets)));
  const notes = resolveSecrets ? [] : records.filter((r) => r.secrets).map((r) => `${r.id}: rpc_urls keep their secret references ({type: env, value}); relayer v1.8 cannot read them (its PR #517 can): export with --resolve-secrets to write their values`);
  const invalid = [...new Set(report.problems.map((p) => p.path))].map((rel) => {
    const first = report.problems.find((p) => p.path === rel);
    return `${rel}: left out; it is not a valid network file (${first?.line}:${first?.column}: ${first?.error})`;
  });
  return { documents: exported.documents, leftOut: [...invalid, ...exported.leftOut], notes };
}

/**
 * Writes `OUT/<type>.json` for each type with networks, and `{"networks": []}` over an existing
 * file of a type that has none now (the relayer would load its stale networks otherwise).
 * Returns the files written. Each is replaced whole (temp file and rename).
 */
export function writeExport(exported: RelayerExport, out: string): string[] {
  mkdirSync(out, { recursive: true });
  const written: string[] = [];
  for (const type of RELAYER_TYPES) {
    const file = path.join(out, `${type}.json`);
    const document = exported.documents[type] ?? (existsSync(file) ? { networks: [] } : null);
    if (!document) continue;
    const temp = path.join(out, `.${type}.json.${process.pid}.tmp`);
    writeFileSync(temp, `${JSON.stringify(document, null, 2)}\n`);
    renameSync(temp, file);
    written.push(file);
  }
  return written;
}
