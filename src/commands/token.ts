/**
 * `netcfg token new`: a fresh token for API_TOKENS_FILE, printed once with the entry (its SHA-256,
 * name, role and scope) to paste into the file.
 */
import { Command, Option } from 'commander';
import { newToken } from '../access/token-new.js';
import { ROLES } from '../access/tokens-file.js';
import { fail } from './fail.js';

export function tokenCommands(program: Command): void {
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
}
