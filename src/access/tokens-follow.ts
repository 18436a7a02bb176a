/**
 * API_TOKENS_FILE followed while the server runs (follow/followed-file.ts): a change takes effect
 * within a second, without a restart (rotation: add the new token, move the clients, remove the
 * old). A file missing, unreadable or not parsing keeps the last good tokens for API_TOKENS_GRACE_MS;
 * then every named token is refused until the file is good again (API_KEY keeps working): a file
 * deleted, or swapped for one that is not a tokens file, revokes what it held, later rather than
 * never. Readiness shows its problem with line and column, never a token or a name.
 */
import { FollowedFile, type FollowedState } from '../follow/followed-file.js';
import { moduleNear } from '../follow/parse-worker.js';
import type { TokenEntry } from './tokens-file.js';
import type { TokenSet } from './token-set.js';

export const DEFAULT_TOKENS_GRACE_MS = 300_000;

export class TokensFollow {
  private readonly followed: FollowedFile<TokenEntry[]>;

  constructor(
    file: string,
    private readonly tokens: TokenSet,
    graceMs: number,
    log: { info(fields: object, message: string): void; error(fields: object, message: string): void },
  ) {
    this.followed = new FollowedFile<TokenEntry[]>({
      file,
      parser: { module: moduleNear(import.meta.url, './tokens-file'), name: 'tokensOfText' },
      graceMs,
      onValue: (entries) => void tokens.replaceInSlices(entries ?? []),
      log,
      what: 'API_TOKENS_FILE',
    });
  }

  /** Reads the file once, before the server listens: null when taken, else its problems (the start is refused). */
  async first(): Promise<string[] | null> {
    const first = await this.followed.first();
    if ('problems' in first) return first.problems;
    this.tokens.replace(first.value);
    return null;
  }

  start(): void {
    this.followed.start();
  }

  close(): Promise<void> {
    return this.followed.close();
  }

  /** How many tokens are accepted now (API_KEY's among them). */
  get size(): number {
    return this.tokens.size;
  }

  state(): FollowedState {
    return this.followed.state();
  }
}
