/**
 * `netcfg import relayer` and `netcfg export relayer`: the commands that move networks between a
 * config folder and the OpenZeppelin Relayer's files (import-relayer.ts, export-relayer.ts and
 * export-folder.ts do the work; this file reads the flags and says what happened).
 */
import path from 'node:path';
import { Command, Option } from 'commander';
import { oneDocument } from '../relayer/format/export.js';
import { exportFolder, foreignRefusals, planFolderExport } from './export-relayer.js';
import { commitExport } from './export-folder.js';
import { policyOrFail } from './fail.js';
import { importRelayer } from './import-relayer.js';

export function relayerCommands(program: Command, env: Record<string, string | undefined>): void {
  program
    .command('import')
    .description("bring networks in from another tool's files")
    .command('relayer')
    .description(
      "the OpenZeppelin Relayer's networks (a folder of *.json, one networks file, or its config.json), " +
        'with `from` resolved, as one netcfg file each; nothing is written if anything would be refused',
    )
    .argument('<src>', 'what the relayer reads')
    .requiredOption('--out <dir>', 'the config folder to write <type>/<network>.yaml into')
    .option('--force', 'overwrite files that differ from what the import writes')
    .action((src: string, opts: { out: string; force?: boolean }) => {
      const result = importRelayer(src, opts.out, { force: opts.force === true, policy: policyOrFail(env) });
      for (const p of result.problems) process.stderr.write(`${p.file}:${p.line}:${p.column}: ${p.message}\n`);
      for (const rel of result.conflicts)
        process.stderr.write(
          `${path.join(opts.out, rel)}: differs from what the import would write (--force overwrites it)\n`,
        );
      const refused = result.problems.length + result.conflicts.length;
      if (refused > 0) process.stderr.write(`netcfg: ${refused} problem(s); nothing was written\n`);
      else
        process.stdout.write(
          `netcfg: ${result.written.length + result.unchanged.length} networks in ${opts.out} ` +
            `(${result.written.length} written, ${result.unchanged.length} unchanged)\n`,
        );
      process.exitCode = refused > 0 ? 1 : 0;
    });
  program
    .command('export')
    .description("write networks in another tool's format")
    .command('relayer')
    .description(
      "the networks of a config folder as the OpenZeppelin Relayer's networks files: what it would refuse, and by default a network " +
        'holding secret references, is left out and named on stderr; nothing is written if anything is refused',
    )
    .argument('[dir]', 'the config folder', env.CONFIG_DIR || 'config/networks')
    .requiredOption(
      '--out <out>',
      "folder for <type>.json files (refused if it holds a *.json netcfg did not write), or '-' for one document on stdout",
    )
    .option(
      '--replace',
      'rename each *.json netcfg did not write in --out to <name>.replaced-by-netcfg-<time>, so the relayer stops loading it',
    )
    .option('--strict', 'exit 1, writing nothing, when anything is left out')
    .addOption(
      new Option(
        '--resolve-secrets',
        'write the values of secret references (relayer v1.8); an unset variable is exit 1',
      ).conflicts('keepReferences'),
    )
    .addOption(
      new Option(
        '--keep-references',
        'write secret references as {type: env, value} (a relayer built with env references, its PR #517)',
      ),
    )
    .action(
      (
        dir: string,
        opts: { out: string; replace?: boolean; strict?: boolean; resolveSecrets?: boolean; keepReferences?: boolean },
      ) => {
        const choice = opts.resolveSecrets === true ? 'resolve' : opts.keepReferences === true ? 'keep' : 'leave-out';
        const exported = exportFolder(path.resolve(dir), policyOrFail(env), choice);
        const refused = [...exported.refused];
        if (opts.strict === true && exported.leftOut.length > 0)
          refused.push(`--strict: ${exported.leftOut.length} thing(s) left out (above)`);
        const plan = opts.out === '-' ? null : planFolderExport(exported, opts.out);
        if (plan && (opts.replace !== true || plan.notFolder)) refused.push(...foreignRefusals(plan));
        for (const line of exported.leftOut) process.stderr.write(`${line}\n`);
        if (refused.length > 0) {
          for (const line of refused) process.stderr.write(`${line}\n`);
          process.stderr.write(`netcfg: ${refused.length} problem(s); nothing was written\n`);
          process.exitCode = 1;
          return;
        }
        if (!plan) {
          process.stdout.write(`${JSON.stringify(oneDocument(exported), null, 2)}\n`);
          return;
        }
        const done = commitExport(plan);
        for (const { from, to } of done.renamed)
          process.stderr.write(
            `netcfg: renamed ${path.join(opts.out, from)} to ${path.join(opts.out, to)}; the relayer no longer loads it\n`,
          );
        for (const file of done.written) process.stderr.write(`netcfg: wrote ${file}\n`);
      },
    );
}
