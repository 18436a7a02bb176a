#!/usr/bin/env node
/**
 * The `netcfg` command: `serve` runs the server, `validate` checks a config folder the way the
 * server would load it, `import`/`export relayer` move networks to and from the relayer's files
 * and `token new` makes an API token. commander does the parsing; each command is in src/commands.
 */
import { Command } from 'commander';
import { environment } from './config/index.js';
import { fail } from './commands/fail.js';
import { relayerCommands } from './commands/relayer.js';
import { serveCommand } from './commands/serve.js';
import { tokenCommands } from './commands/token.js';
import { validateCommand } from './commands/validate.js';
import { addCommand } from './commands/add.js';

export function buildCli(): Command {
  const env = environment();
  const program = new Command('netcfg').description('GitOps network configuration service').showHelpAfterError();
  serveCommand(program);
  validateCommand(program, env);
  relayerCommands(program, env);
  tokenCommands(program);
  addCommand(program, env);
  return program;
}

buildCli()
  .parseAsync(process.argv)
  .catch((err: unknown) => fail((err as Error).stack ?? String(err), 1));
