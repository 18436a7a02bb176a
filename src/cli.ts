#!/usr/bin/env node
/**
 * The `netcfg` command: `serve` runs the server (flags override environment variables) and
 * `validate` checks a config folder the way the server would load it, printing
 * `path:line:column: message` lines that editors and CI annotate. commander does the parsing.
 */
import path from 'node:path';
import { Command, Option } from 'commander';
import { configFromEnv, ConfigError, environment, policyFromEnv } from './config.js';
import { serve } from './main.js';
import { probeNetworks } from './probe/probe-folder.js';
import { DEFAULT_PROBER, Prober } from './probe/prober.js';
import { revealedNetworkOf, writtenNetworkOf, rpcAutoRecords, validateFolder } from './store/index.js';
import { exportFolder, foreignRefusals, planFolderExport } from './commands/export-relayer.js';
import { commitExport } from './commands/export-target.js';
import { importRelayer } from './commands/import-relayer.js';
import { addCommand } from './commands/add.js';
import { oneDocument } from './relayer/format/export.js';
import { newToken } from './access/token-new.js';
import { ROLES } from './access/tokens-file.js';

function fail(message: string, code = 2): never {
  process.stderr.write(`netcfg: ${message}\n`);
  process.exit(code);
}

export function buildCli(): Command {
  const env = environment();
  const program = new Command('netcfg').description('GitOps network configuration service').showHelpAfterError();

  program
    .command('serve')
    .description(
      'serve the networks of a config folder over HTTP; each flag overrides the environment variable in brackets',
    )
    .addOption(new Option('--host <host>', 'address to listen on [HOST]'))
    .addOption(new Option('--port <port>', 'port to listen on (0 = any free port) [PORT]'))
    .addOption(new Option('--config-dir <dir>', 'folder of <family>/<name>.yaml files [CONFIG_DIR]'))
    .addOption(new Option('--log-level <level>', 'fatal|error|warn|info|debug|trace|silent [LOG_LEVEL]'))
    .addOption(new Option('--require-if-match', 'refuse a PATCH without If-Match (428) [REQUIRE_IF_MATCH]'))
    .addOption(
      new Option('--block-private-ips', 'refuse RPC URLs pointing at internal addresses [RPC_BLOCK_PRIVATE_IPS]'),
    )
    .addOption(
      new Option('--allowed-hosts <hosts>', 'comma-separated RPC hosts to accept (default: any) [RPC_ALLOWED_HOSTS]'),
    )
    .addOption(
      new Option(
        '--secret-refs-allowed <pairs>',
        'which variables each network\'s secret references may name, e.g. "evm:*=ETH_*;solana:*=SOL_*" [SECRET_REFS_ALLOWED]',
      ),
    )
    .addOption(new Option('--watch-poll', 'poll the folder instead of inotify (network file systems) [WATCH_POLL]'))
    .addOption(new Option('--watch-poll-interval-ms <ms>', 'polling interval [WATCH_POLL_INTERVAL_MS]'))
    .addOption(new Option('--git-commit', 'commit every PATCH to the git work tree holding the folder [GIT_COMMIT]'))
    .addOption(new Option('--git-sync', "follow the remote branch the folder's clone tracks [GIT_SYNC]"))
    .addOption(
      new Option('--git-sync-interval-ms <ms>', 'how often to ask the remote for its head [GIT_SYNC_INTERVAL_MS]'),
    )
    .addOption(
      new Option(
        '--git-remote-timeout-ms <ms>',
        'stop a git command that talks to the remote after this long [GIT_REMOTE_TIMEOUT_MS]',
      ),
    )
    .addOption(
      new Option(
        '--probe-on-patch <mode>',
        "ask a PATCH's RPC URLs which chain they serve; reject refuses the wrong chain [RPC_PROBE_ON_PATCH]",
      ).choices(['off', 'warn', 'reject']),
    )
    .addOption(
      new Option(
        '--probe-interval-ms <ms>',
        'probe every RPC URL in the background, once per interval [RPC_PROBE_INTERVAL_MS]',
      ),
    )
    .addOption(
      new Option(
        '--index-cache <file>',
        "file that keeps what was parsed, for a fast restart; 'off' to disable (default: in the OS temp folder) [INDEX_CACHE]",
      ),
    )
    .addHelpText('after', '\nThe API key is read from API_KEY only (a flag would show it in the process list).')
    .action(async (opts: Record<string, string | boolean | undefined>) => {
      const env = environment();
      const set = (name: string, value: string | boolean | undefined): void => {
        if (value !== undefined) env[name] = String(value);
      };
      set('HOST', opts.host);
      set('PORT', opts.port);
      set('CONFIG_DIR', opts.configDir);
      set('LOG_LEVEL', opts.logLevel);
      set('REQUIRE_IF_MATCH', opts.requireIfMatch);
      set('INDEX_CACHE', opts.indexCache);
      set('RPC_BLOCK_PRIVATE_IPS', opts.blockPrivateIps);
      set('RPC_ALLOWED_HOSTS', opts.allowedHosts);
      set('SECRET_REFS_ALLOWED', opts.secretRefsAllowed);
      set('WATCH_POLL', opts.watchPoll);
      set('WATCH_POLL_INTERVAL_MS', opts.watchPollIntervalMs);
      set('GIT_COMMIT', opts.gitCommit);
      set('GIT_SYNC', opts.gitSync);
      set('GIT_SYNC_INTERVAL_MS', opts.gitSyncIntervalMs);
      set('GIT_REMOTE_TIMEOUT_MS', opts.gitRemoteTimeoutMs);
      set('RPC_PROBE_ON_PATCH', opts.probeOnPatch);
      set('RPC_PROBE_INTERVAL_MS', opts.probeIntervalMs);
      try {
        await serve(configFromEnv(env));
      } catch (err) {
        if (err instanceof ConfigError) fail(err.message);
        throw err;
      }
    });

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
        const probed = opts.probe
          ? await probeNetworks(
              report.records.map((r) => ({
                path: r.path,
                family: r.id.slice(0, r.id.indexOf(':')),
                fields: revealedNetworkOf(r),
                written: writtenNetworkOf(r).rpc_urls as unknown[],
                records: rpcAutoRecords(path.join(dir, r.path)),
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

  relayerCommands(program, env);
  addCommand(program, env);
  program
    .command('token')
    .description('API_TOKENS_FILE: named tokens with roles and scopes')
    .command('new')
    .description('print a fresh token (once: only its SHA-256 is kept) and the entry to paste into API_TOKENS_FILE')
    .requiredOption('--name <name>', 'who holds it: shown in logs, commits and history')
    .addOption(new Option('--role <role>', 'what it may do').choices([...ROLES]).makeOptionMandatory())
    .option('--networks <globs...>', 'only these network ids (globs such as "evm:*"); all when absent')
    .action((opts: { name: string; role: string; networks?: string[] }) => {
      const made = newToken(opts.name, opts.role, opts.networks ?? []);
      if ('problem' in made) fail(made.problem);
      process.stdout.write(
        `token (give it to its holder; it is not shown again):\n${made.token}\n\nentry for API_TOKENS_FILE (under tokens:):\n${made.entry}`,
      );
    });
  return program;
}

/** The RPC URL rules of the environment, or the start refused with the sentence saying why. */
function policyOrFail(env: Record<string, string | undefined>): ReturnType<typeof policyFromEnv> {
  try {
    return policyFromEnv(env);
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
}

function relayerCommands(program: Command, env: Record<string, string | undefined>): void {
  program
    .command('import')
    .description("bring networks in from another tool's files")
    .command('relayer')
    .description(
      "the OpenZeppelin Relayer's networks (a folder of *.json, one networks file, or its config.json), with `from` resolved, as one netcfg file each; nothing is written if anything would be refused",
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
          `netcfg: ${result.written.length + result.unchanged.length} networks in ${opts.out} (${result.written.length} written, ${result.unchanged.length} unchanged)\n`,
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

buildCli()
  .parseAsync(process.argv)
  .catch((err: unknown) => fail((err as Error).stack ?? String(err), 1));
