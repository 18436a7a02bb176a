/**
 * `netcfg validate [dir]`: checks a config folder with the server's own loader and schemas and
 * prints `path:line:column: message` lines that editors and CI annotate; `--probe` also asks each
 * enabled RPC URL which chain it serves. Exit 1 on any problem.
 */
import path from 'node:path';
import { Command, Option } from 'commander';
import { ConfigError, policyFromEnv } from '../config/index.js';
import { probeNetworks } from '../probe/probe-folder.js';
import { DEFAULT_PROBER, Prober } from '../probe/prober.js';
import { revealedNetworkOf, writtenNetworkOf, trailersByFile, validateFolder } from '../store/index.js';
import { folderHealNotes, RPC_AUTO_TRAILER } from '../probe/heal-notes.js';
import { fail } from './fail.js';

export function validateCommand(program: Command, env: Record<string, string | undefined>): void {
  program
    .command('validate')
    .description("check a config folder with the server's own code and schemas; exit 1 on any problem")
    .argument('[dir]', 'the config folder', env.CONFIG_DIR || 'config/networks')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .addOption(new Option('--block-private-ips', 'apply RPC_BLOCK_PRIVATE_IPS [RPC_BLOCK_PRIVATE_IPS]'))
    .addOption(new Option('--allowed-hosts <hosts>', 'apply RPC_ALLOWED_HOSTS [RPC_ALLOWED_HOSTS]'))
    .addOption(
      new Option(
        '--probe',
        'also ask every enabled RPC URL which chain it serves (wrong chain or unreachable: a problem; far behind: a warning)',
      ),
    )
    .addOption(
      new Option(
        '--secret-refs-allowed <pairs>',
        "apply SECRET_REFS_ALLOWED: which variables each network's secret references may name [SECRET_REFS_ALLOWED]",
      ),
    )
    .addOption(
      new Option(
        '--require-secrets',
        'a secret reference whose variable is not set is a problem (without it: a warning, as pull-request CI has no secrets)',
      ),
    )
    .action(
      async (
        dir: string,
        opts: {
          format: string;
          blockPrivateIps?: boolean | string;
          allowedHosts?: string;
          secretRefsAllowed?: string;
          probe?: boolean;
          requireSecrets?: boolean;
        },
      ) => {
        // The flags override the environment, read by the same rules as the server's.
        let policy;
        try {
          policy = policyFromEnv({
            ...env,
            ...(opts.blockPrivateIps === true ? { RPC_BLOCK_PRIVATE_IPS: 'true' } : {}),
            ...(opts.allowedHosts === undefined ? {} : { RPC_ALLOWED_HOSTS: opts.allowedHosts }),
            ...(opts.secretRefsAllowed === undefined ? {} : { SECRET_REFS_ALLOWED: opts.secretRefsAllowed }),
          });
        } catch (err) {
          if (err instanceof ConfigError) fail(err.message);
          throw err;
        }
        const { blockPrivate } = policy;
        const report = validateFolder(path.resolve(dir), policy);
        const started = performance.now();
        // The self-healing's notes of the whole folder, from one git log (none outside a work tree).
        const healNotes = opts.probe
          ? folderHealNotes(await trailersByFile(path.resolve(dir), [RPC_AUTO_TRAILER]))
          : null;
        const probed = healNotes
          ? await probeNetworks(
              report.records.map((r) => ({
                path: r.path,
                family: r.id.slice(0, r.id.indexOf(':')),
                fields: revealedNetworkOf(r),
                written: writtenNetworkOf(r).rpc_urls as unknown[],
                notes: healNotes.get(r.path.split(path.sep).join('/')) ?? [],
              })),
              new Prober({ ...DEFAULT_PROBER, blockPrivate }),
              report.positionOf,
            )
          : null;
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        const unsetOnly = (p: { unset_secret?: string }): boolean =>
          p.unset_secret !== undefined && opts.requireSecrets !== true;
        const located = (p: { path: string; line: number; column: number; error: string }) => ({
          path: path.join(dir, p.path),
          line: p.line,
          column: p.column,
          error: p.error,
        });
        const problems = [
          ...report.problems.filter((p) => !unsetOnly(p)),
          ...(probed?.findings.filter((f) => f.severity === 'problem') ?? []),
        ].map(located);
        const warnings = [
          ...report.problems.filter(unsetOnly),
          ...(probed?.findings.filter((f) => f.severity === 'warning') ?? []),
        ].map(located);
        if (opts.format === 'json') {
          const probe = probed ? { probe: { urls: probed.urls, seconds: Number(seconds) } } : {};
          process.stdout.write(
            `${JSON.stringify({ ok: problems.length === 0, networks: report.networks, problems, warnings, ...probe }, null, 2)}\n`,
          );
        } else {
          for (const p of problems) process.stdout.write(`${p.path}:${p.line}:${p.column}: ${p.error}\n`);
          for (const w of warnings) process.stdout.write(`${w.path}:${w.line}:${w.column}: warning: ${w.error}\n`);
          const files = new Set(problems.map((p) => p.path)).size;
          const probeNote = probed ? `; ${probed.urls} RPC URLs probed in ${seconds} s` : '';
          const summary =
            problems.length === 0
              ? `netcfg: ${report.networks} networks valid in ${dir}${probeNote}`
              : `netcfg: ${problems.length} problem(s) in ${files} file(s); ${report.networks} networks valid in ${dir}${probeNote}`;
          process.stdout.write(`${summary}\n`);
        }
        process.exitCode = problems.length === 0 ? 0 : 1;
      },
    );
}
