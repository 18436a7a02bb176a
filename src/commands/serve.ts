/**
 * `netcfg serve`: runs the server (main.ts) with each flag overriding the environment variable
 * named in brackets in its help; the API key comes from the environment only.
 */
import { Command, Option } from 'commander';
import { configFromEnv, ConfigError, environment } from '../config/index.js';
import { fail } from './fail.js';

export function serveCommand(program: Command): void {
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
        const config = configFromEnv(env);
        // Loaded here, not at the top: every other command (validate, add, ...) starts without the server's modules.
        const { serve } = await import('../main.js');
        await serve(config);
      } catch (err) {
        if (err instanceof ConfigError) fail(err.message);
        throw err;
      }
    });
}
