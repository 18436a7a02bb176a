/**
 * `netcfg export relayer [DIR] --out <OUT>`: the networks of a config folder, read with the
 * server's own loader, as the relayer's networks files (relayer/format/export.ts): `OUT/<type>.json`
 * per type, or one document on stdout (`--out -`). What the relayer would refuse, and by default a
 * network holding secret references (relayer/format/secret-choice.ts), is left out and said.
 * Nothing is written when anything is refused (export-folder.ts says what OUT may hold).
 */
import path from 'node:path';
import type { RelayerExport } from '../relayer/format/export.js';
import { RELAYER_TYPES } from '../relayer/format/relayer-types.js';
import { CLI_WORDING, exportNetworks, referencesLeftOut, type SecretChoice } from '../relayer/format/secret-choice.js';
import { validateFolder, type UrlPolicy } from '../store/index.js';
import { planExport, type ExportPlan } from './export-folder.js';

export interface FolderExport extends RelayerExport {
  /** Why nothing may be written, one sentence each (a variable `--resolve-secrets` needs and cannot read). */
  refused: string[];
}

export function exportFolder(dir: string, policy: UrlPolicy, choice: SecretChoice = 'leave-out'): FolderExport {
  const report = validateFolder(dir, policy);
  const records = [...report.records].sort((a, b) => (a.id < b.id ? -1 : 1));
  const exported = exportNetworks(records, choice, CLI_WORDING);
  const invalid: string[] = [];
  const refused: string[] = [];
  for (const rel of new Set(report.problems.map((p) => p.path))) {
    const problems = report.problems.filter((p) => p.path === rel);
    const unset = problems.filter((p) => p.unset_secret !== undefined);
    const first = problems[0];
    if (unset.length > 0 && choice === 'resolve') {
      for (const p of unset)
        refused.push(
          `${path.join(dir, rel)}:${p.line}:${p.column}: ${p.unset_secret} is not set, and --resolve-secrets needs its value`,
        );
    } else if (unset.length > 0 && choice === 'leave-out') {
      invalid.push(
        referencesLeftOut(
          rel,
          unset.map((p) => p.unset_secret as string),
          CLI_WORDING,
          true,
        ),
      );
    } else {
      invalid.push(
        `${rel}: left out; it is not a valid network file (${first?.line}:${first?.column}: ${first?.error})`,
      );
    }
  }
  return { documents: exported.documents, leftOut: [...invalid, ...exported.leftOut], refused };
}

/** The plan for `out`: each type's `<type>.json` text (export-folder.ts adds netcfg's own files now empty). */
export function planFolderExport(exported: RelayerExport, out: string): ExportPlan {
  const documents = new Map<string, string>();
  for (const type of RELAYER_TYPES) {
    const document = exported.documents[type];
    if (document) documents.set(`${type}.json`, `${JSON.stringify(document, null, 2)}\n`);
  }
  return planExport(out, documents);
}

/** Each foreign file of a plan as a sentence: why the relayer would not start, and what to do. */
export function foreignRefusals(plan: ExportPlan): string[] {
  if (plan.notFolder) return [`${plan.dir}: not a folder; --out names the folder the relayer loads its networks from`];
  return plan.foreign.map(
    ({ name, why }) =>
      `${path.join(plan.dir, name)}: the relayer would load it beside netcfg's files (${why}), and a network ` +
      'defined twice refuses its start: move it, or --replace renames it aside',
  );
}
