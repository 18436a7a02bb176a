/**
 * git in the work tree holding the config folder: every git command netcfg runs there goes
 * through `git()`, one at a time (`serial`), as netcfg's author (git-process.ts runs it). On top of
 * it, GIT_COMMIT: each successful PATCH becomes one commit of that file alone, made while the
 * file's lock is held, so `git log` is the audit trail and `git revert` undoes a change. A failed
 * commit never loses the write: the file is on disk already; the path is kept, reported in
 * readiness and committed on the next retry. An edit of that file made on disk and never committed
 * is committed first, on its own, as the working tree's (commitFound): a write signs only its own change.
 * And the history of a network's file (file-history.ts).
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { NetcfgError } from '../../errors.js';
import { SerialQueue } from '../../serial-queue.js';
import { GitIndexLock } from './git-index-lock.js';
import { firstLine, GitError, LOCAL_TIMEOUT_MS, runGit } from './git-process.js';
import { historyOf, type CommitPage } from '../history/file-history.js';
import type { Committer } from '../write/write-strategy.js';

export type { Commit, CommitPage } from '../history/file-history.js';

export interface GitAuthor {
  name: string;
  email: string;
}

const RETRY_MS = [200, 1000, 5000, 30_000];

/** The most a git command may answer (a `git log` of history, a file's version is capped lower by its caller). */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

export interface GitOptions {
  /** What git reads on its standard input. */
  input?: Buffer;
  timeoutMs?: number;
  maxBytes?: number;
  /** More of git's environment (a proposal's own index and author). */
  env?: NodeJS.ProcessEnv;
}

export class WorkTree implements Committer {
  private failure: { at: Date; message: string } | null = null;
  /** Writes not committed yet: path from the top -> the commit's message and author. */
  private readonly pending = new Map<string, { message: string; author: string }>();
  private readonly commands = new SerialQueue();
  private retryTimer: NodeJS.Timeout | undefined;
  private retries = 0;
  /** Aborted by stop(): every git command running is killed, and none starts after. */
  private readonly stopping = new AbortController();

  private constructor(
    readonly top: string,
    /** git's lock on the work tree, which PATCHes wait for (git-index-lock.ts). */
    readonly indexLock: GitIndexLock,
    private readonly author: GitAuthor,
  ) {}

  /** git in the work tree holding `dir`, or null when `dir` is not in one. */
  static async open(dir: string, author: GitAuthor): Promise<WorkTree | null> {
    try {
      const stdout = await runGit({
        args: ['-C', dir, 'rev-parse', '--show-toplevel', '--absolute-git-dir'],
        env: process.env,
        timeoutMs: LOCAL_TIMEOUT_MS,
        maxBytes: 64 * 1024,
      });
      const [top = '', gitDir = ''] = stdout.trim().split('\n');
      return new WorkTree(top, new GitIndexLock(gitDir), author);
    } catch {
      return null;
    }
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /** The last commit git refused, until the pending ones went in (shown in readiness). */
  get lastFailure(): { at: Date; message: string } | null {
    return this.failure;
  }

  /** Commits `file` alone, authored by `author` (`Name <email>`; netcfg commits it). Never throws: a failure is kept for a retry and shown in readiness. */
  commit(file: string, message: string, author: string = this.authorLine): Promise<void> {
    const rel = path.relative(this.top, file);
    this.pending.set(rel, { message, author });
    return this.serial(() => this.flush());
  }

  /**
   * Before a write of `file`, read as `bytes`: when HEAD does not hold those bytes (an edit made on disk and
   * never committed, a file git does not track yet), commits the file as it is on disk, alone, by `author`,
   * so the write's own commit holds its change only. One git command when HEAD holds them. A file whose
   * commit is still pending differs by netcfg's own write: it is left to that commit. STORAGE_UNAVAILABLE when git refuses.
   */
  commitFound(file: string, bytes: Buffer, message: string, author: string): Promise<void> {
    const rel = path.relative(this.top, file);
    return this.serial(() =>
      this.indexLock.ours(async () => {
        if (this.pending.has(rel) || (await this.headHolds(rel, bytes))) return;
        try {
          await this.commitOnly(rel, message, author);
        } catch (err) {
          // git may still call the bytes the same (a filter, a line-end rule): nothing of anyone's is then left to commit.
          if (/nothing to commit|no changes added/i.test(String((err as { stderr?: string }).stderr))) return;
          const message = `git could not commit the edit of ${rel} made outside netcfg (${firstLine(err)}); nothing was written, retry later.`;
          throw new NetcfgError('STORAGE_UNAVAILABLE', message, { cause: err });
        }
      }),
    );
  }

  /** Whether HEAD holds `rel` with exactly `bytes` (false when it does not hold the file, or has no commit yet). */
  async headHolds(rel: string, bytes: Buffer): Promise<boolean> {
    const id = await this.git(['rev-parse', '--verify', '--quiet', `HEAD:${rel.split(path.sep).join('/')}`]).then(
      (out) => out.trim(),
      (err: unknown) => {
        // `--verify --quiet` exits 1 when there is no such file; git stopped or failing otherwise is no answer.
        if (err instanceof GitError && err.reason === 'exit') return '';
        const message = `git could not tell what HEAD holds of ${rel} (${firstLine(err)}); nothing was written, retry later.`;
        throw new NetcfgError('STORAGE_UNAVAILABLE', message, { cause: err });
      },
    );
    return id !== '' && id === blobId(bytes, id.length);
  }

  /** Commits of `files` (paths inside the work tree), newest first, with the trailers `keys`, and how many there are. */
  history(files: string[], skip: number, limit: number, keys: readonly string[] = []): Promise<CommitPage> {
    return historyOf(this, files, skip, limit, keys);
  }

  /** Kills every git command running now (shutdown); later ones fail at once. */
  stop(): void {
    clearTimeout(this.retryTimer);
    this.stopping.abort();
  }

  private async flush(): Promise<void> {
    for (const [rel, { message, author }] of [...this.pending]) {
      try {
        await this.indexLock.ours(() => this.commitOnly(rel, message, author));
        this.pending.delete(rel);
      } catch (err) {
        const text = String((err as { stderr?: string }).stderr || (err as Error).message);
        if (/nothing to commit|no changes added/i.test(text)) {
          this.pending.delete(rel);
          continue;
        }
        this.failure = { at: new Date(), message: `git commit of ${rel} failed: ${firstLine(err)}` };
        this.scheduleRetry();
        return;
      }
    }
    this.retries = 0;
    if (this.pending.size === 0) this.failure = null;
  }

  /** `rel` as it is on disk, committed alone (other staged changes stay out), without hooks. */
  private async commitOnly(rel: string, message: string, author: string): Promise<void> {
    await this.git(['add', '--', rel]);
    await this.git(['commit', '--no-verify', '--quiet', '--only', `--author=${author}`, '-m', message, '--', rel]);
  }

  private scheduleRetry(): void {
    clearTimeout(this.retryTimer);
    const delay = RETRY_MS[Math.min(this.retries++, RETRY_MS.length - 1)];
    this.retryTimer = setTimeout(() => void this.serial(() => this.flush()), delay);
    this.retryTimer.unref();
  }

  /** One git command at a time: git's own index.lock would refuse concurrent ones. */
  serial<T>(fn: () => Promise<T>): Promise<T> {
    return this.commands.run(fn);
  }

  /** `git -C <top> ...args` as netcfg's author; its stdout. Never asks for a password: no one would answer. */
  git(args: string[], options: GitOptions = {}): Promise<string> {
    const env = {
      ...process.env,
      GIT_AUTHOR_NAME: this.author.name,
      GIT_AUTHOR_EMAIL: this.author.email,
      GIT_COMMITTER_NAME: this.author.name,
      GIT_COMMITTER_EMAIL: this.author.email,
      GIT_TERMINAL_PROMPT: '0',
      ...options.env,
    };
    return runGit({
      args: ['-C', this.top, ...args],
      env,
      input: options.input,
      timeoutMs: options.timeoutMs ?? LOCAL_TIMEOUT_MS,
      maxBytes: options.maxBytes ?? MAX_ANSWER_BYTES,
      signal: this.stopping.signal,
    });
  }

  /** The author netcfg's commits carry. */
  get authorLine(): string {
    return `${this.author.name} <${this.author.email}>`;
  }
}

/** The id git gives `bytes` as a blob: sha1, or sha256 in a repository that hashes so (told by the length of its ids). */
function blobId(bytes: Buffer, hexLength: number): string {
  return createHash(hexLength === 64 ? 'sha256' : 'sha1')
    .update(`blob ${bytes.length}\0`)
    .update(bytes)
    .digest('hex');
}
