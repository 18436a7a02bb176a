/**
 * API_TOKENS_FILE followed while the server runs: a change takes effect within a second, without a
 * restart (rotation: add the new token, move the clients, remove the old). The file is looked at
 * by its stat every 200 ms (fs.watchFile): a Kubernetes Secret is updated by swapping a link, which
 * a watch on the file itself does not see. A file that does not parse keeps the last good tokens
 * and is shown in readiness with its line and column, never with a token or a name.
 */
import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import { parseTokensFile, type TokenEntry } from './tokens-file.js';
import type { TokenSet } from './token-set.js';

const LOOK_EVERY_MS = 200;

/** The file's tokens, or its problems as `file:line:column: message`. */
export function readTokensFile(file: string): { tokens: TokenEntry[]; problems: string[] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return { tokens: [], problems: [`${file}:1:1: cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`] };
  }
  const { tokens, problems } = parseTokensFile(text);
  return { tokens, problems: problems.map((p) => `${file}:${p.line}:${p.column}: ${p.message}`) };
}

export class TokensWatch {
  private lastProblem: string | null = null;

  constructor(
    private readonly file: string,
    private readonly tokens: TokenSet,
    private readonly log: { info(fields: object, message: string): void; error(fields: object, message: string): void },
  ) {}

  start(): void {
    watchFile(this.file, { interval: LOOK_EVERY_MS, persistent: false }, () => this.reload());
  }

  stop(): void {
    unwatchFile(this.file);
  }

  /** Why the file's last change was not taken (the tokens before it still hold), or null. */
  problem(): string | null {
    return this.lastProblem;
  }

  /** How many tokens are accepted now. */
  get size(): number {
    return this.tokens.size;
  }

  private reload(): void {
    const { tokens, problems } = readTokensFile(this.file);
    if (problems.length > 0) {
      this.lastProblem = problems[0] as string;
      this.log.error({ problems }, 'API_TOKENS_FILE changed but cannot be used; the tokens before the change still hold');
      return;
    }
    this.tokens.replace(tokens);
    this.lastProblem = null;
    this.log.info({ tokens: this.tokens.size }, 'API_TOKENS_FILE reloaded');
  }
}
