/**
 * GIT_SYNC: the config folder's clone follows the remote branch its branch tracks. Every interval
 * (and at once when a verified webhook asks) one `git ls-remote` asks the remote for its head, one
 * round trip and no objects; only when it moved does a `git fetch` and a fast-forward
 * (`git merge --ff-only`) bring the work tree to it. netcfg never makes a merge commit. The
 * watcher then brings the changed files into the index as for any checkout: a bad file merged
 * upstream is reported and its last good version served.
 *
 * Every git command goes through the journal's one-at-a-time chain. A remote that cannot be reached
 * is recorded (readiness says `degraded`) and the next interval tries again; reads go on.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { NetcfgError } from '../../errors.js';
import { LOCK_DIR, TEMP_DIR } from '../files/layout.js';
import type { GitJournal } from './git-journal.js';

export interface SyncStatus {
  head: string | null;
  upstream: string;
  last_pull_at: string | null;
  last_push_at: string | null;
  ahead: number;
  behind: number;
  last_error: string | null;
}

export class GitSync {
  /** Pulls started (by the interval or a webhook), for readiness and tests. */
  pulls = 0;
  private lastPullAt: Date | null = null;
  private lastPushAt: Date | null = null;
  private lastError: string | null = null;
  private head: string | null = null;
  private ahead = 0;
  private behind = 0;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private again = false;

  private constructor(
    private readonly journal: GitJournal,
    /** `origin/main`: the remote and the branch the clone's branch tracks. */
    readonly upstream: string,
    private readonly remote: string,
    private readonly branch: string,
  ) {}

  /** The sync of the clone holding the journal's work tree; throws when its branch tracks no remote branch. */
  static async open(journal: GitJournal): Promise<GitSync> {
    let upstream: string;
    try {
      upstream = (await journal.git(['rev-parse', '--abbrev-ref', '--symbolic-full-name', '@{upstream}'])).trim();
    } catch (err) {
      throw new Error(`GIT_SYNC needs CONFIG_DIR inside a clone whose branch tracks a remote branch (what "git clone URL" makes); ${firstLine(err)}`, { cause: err });
    }
    const slash = upstream.indexOf('/');
    const sync = new GitSync(journal, upstream, upstream.slice(0, slash), upstream.slice(slash + 1));
    // The clone is netcfg's: what a killed process left (a commit not pushed, a file not committed) never got its 200.
    await journal.git(['reset', '--hard', '--quiet', upstream]);
    await excludeOwnFolders(journal);
    sync.head = (await journal.git(['rev-parse', 'HEAD'])).trim();
    return sync;
  }

  /** Pulls now, then every `intervalMs`. */
  start(intervalMs: number): Promise<void> {
    this.timer = setInterval(() => void this.pull(), intervalMs);
    this.timer.unref();
    return this.pull();
  }

  /** Stops pulling, and resolves once no git command of this process runs any more. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.again = false;
    await this.running?.catch(() => undefined);
    await this.journal.serial(async () => undefined);
  }

  /**
   * Brings the clone to the remote's head if it moved. A pull asked for while one runs (a webhook
   * during an interval's pull) runs once more after it, so the newest push is never missed.
   */
  pull(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.pulls++;
    this.running = this.journal
      .serial(() => this.pullOnce())
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          void this.pull();
        }
      });
    return this.running;
  }

  /** Where the clone stands, as of the last pull. */
  status(): SyncStatus {
    return {
      head: this.head,
      upstream: this.upstream,
      last_pull_at: this.lastPullAt?.toISOString() ?? null,
      last_push_at: this.lastPushAt?.toISOString() ?? null,
      ahead: this.ahead,
      behind: this.behind,
      last_error: this.lastError,
    };
  }

  /**
   * Commits `file` alone and pushes it to the upstream branch. 'rejected' when the remote moved
   * on meanwhile (a non-fast-forward): the clone is then at the remote's new head and the edit is
   * undone, for the caller to make again on top of it. Any other failure (the remote down) leaves
   * the clone at the remote's last known head, clean, and is a GIT_REMOTE_UNAVAILABLE. The caller
   * makes sure no other change of this clone is in flight (with GIT_SYNC writes take one turn).
   */
  commitAndPush(file: string, message: string): Promise<'pushed' | 'rejected'> {
    return this.journal.serial(async () => {
      const rel = path.relative(this.journal.top, file);
      try {
        await this.journal.indexLock.ours(async () => {
          await this.journal.git(['add', '--', rel]);
          await this.journal.git(['commit', '--no-verify', '--quiet', '--only', '-m', message, '--', rel]);
        });
      } catch (err) {
        await this.journal.git(['reset', '--hard', '--quiet', this.upstream]);
        throw new NetcfgError('STORAGE_UNAVAILABLE', `git could not commit ${rel} (${firstLine(err)}); nothing was changed.`, { cause: err });
      }
      try {
        await this.journal.git(['push', '--quiet', this.remote, `HEAD:refs/heads/${this.branch}`]);
      } catch (err) {
        // Refused because the branch moved: by the check before the push, or by a push that won the race to update the ref.
        const rejected = /\[rejected\]|non-fast-forward|fetch first|cannot lock ref|failed to update ref/.test(String((err as { stderr?: string }).stderr ?? ''));
        if (rejected && (await this.fetched())) {
          await this.journal.git(['reset', '--hard', '--quiet', this.upstream]);
          this.head = (await this.journal.git(['rev-parse', 'HEAD'])).trim();
          return 'rejected';
        }
        await this.journal.git(['reset', '--hard', '--quiet', this.upstream]);
        this.lastError = `git push to ${this.upstream} failed: ${firstLine(err)}`;
        throw new NetcfgError('GIT_REMOTE_UNAVAILABLE', `The change could not be pushed to ${this.upstream} (${firstLine(err)}); nothing was changed, retry later.`, { cause: err });
      }
      this.head = (await this.journal.git(['rev-parse', 'HEAD'])).trim();
      this.lastPushAt = new Date();
      this.lastError = null;
      this.ahead = 0;
      this.behind = 0;
      return 'pushed';
    });
  }

  /** Fetches the upstream branch; false when the remote cannot be reached. */
  private async fetched(): Promise<boolean> {
    try {
      await this.journal.git(['fetch', '--quiet', this.remote, this.branch]);
      return true;
    } catch {
      return false;
    }
  }

  private async pullOnce(): Promise<void> {
    try {
      const listed = await this.journal.git(['ls-remote', '--quiet', this.remote, `refs/heads/${this.branch}`]);
      const remoteHead = listed.split(/\s/)[0] ?? '';
      const rev = async (ref: string): Promise<string> => (await this.journal.git(['rev-parse', ref])).trim();
      let known = await rev(this.upstream);
      if (remoteHead !== '' && remoteHead !== known) {
        await this.journal.git(['fetch', '--quiet', this.remote, this.branch]);
        known = await rev(this.upstream);
      }
      if ((await rev('HEAD')) !== known) await this.journal.git(['merge', '--ff-only', '--quiet', this.upstream]);
      this.head = await rev('HEAD');
      const counts = await this.journal.git(['rev-list', '--left-right', '--count', `HEAD...${this.upstream}`]);
      [this.ahead = 0, this.behind = 0] = counts.trim().split(/\s+/).map(Number);
      this.lastPullAt = new Date();
      this.lastError = null;
    } catch (err) {
      this.lastError = `git pull from ${this.upstream} failed: ${firstLine(err)}`;
    }
  }
}

/** netcfg's lock and temp folders never show in `git status` of the clone (its own exclude file, not a committed .gitignore). */
async function excludeOwnFolders(journal: GitJournal): Promise<void> {
  const exclude = path.join((await journal.git(['rev-parse', '--absolute-git-dir'])).trim(), 'info', 'exclude');
  const wanted = [`/${LOCK_DIR}/`, `/${TEMP_DIR}/`, `.*.tmp`].map((p) => p.replace(/^\//, '**/'));
  const current = existsSync(exclude) ? readFileSync(exclude, 'utf8') : '';
  const missing = wanted.filter((line) => !current.split('\n').includes(line));
  if (missing.length === 0) return;
  mkdirSync(path.dirname(exclude), { recursive: true });
  appendFileSync(exclude, `${current === '' || current.endsWith('\n') ? '' : '\n'}# netcfg's own folders (GIT_SYNC)\n${missing.join('\n')}\n`);
}

/** The first line git wrote to stderr (or the error's message), with any password in a URL hidden. */
function firstLine(err: unknown): string {
  const text = String((err as { stderr?: string }).stderr || (err as Error).message);
  return (text.trim().split('\n')[0] ?? '').replace(/\/\/[^/@\s]*@/g, '//***@');
}
