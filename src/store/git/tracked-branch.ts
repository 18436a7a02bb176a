/**
 * The clone's branch and the remote branch it tracks (`origin/main`): every git command GIT_SYNC
 * runs against them, each one line here, so git-sync.ts reads as what it decides.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { firstLine } from './git-process.js';
import type { WorkTree } from './work-tree.js';

export interface Change {
  rel: string;
  deleted: boolean;
}

/** A commit the clone had that the remote branch no longer holds (a force-push rewrote it). */
export interface DroppedCommit {
  sha: string;
  author: string;
  subject: string;
}

/** `origin/main` as the remote's name (`origin`) and the branch's there (`main`). */
export function remoteOf(upstream: string): { remote: string; name: string } {
  const slash = upstream.indexOf('/');
  return { remote: upstream.slice(0, slash), name: upstream.slice(slash + 1) };
}

export class TrackedBranch {
  private constructor(
    private readonly workTree: WorkTree,
    /** `origin/main`: the remote and the branch the clone's branch tracks. */
    readonly upstream: string,
    /** The deadline of each command that talks to the remote. */
    private readonly remoteTimeoutMs: number,
  ) {}

  /** The branch checked out in the work tree; throws when it tracks no remote branch. */
  static async of(workTree: WorkTree, remoteTimeoutMs: number): Promise<TrackedBranch> {
    try {
      return new TrackedBranch(
        workTree,
        (await workTree.git(['rev-parse', '--abbrev-ref', '--symbolic-full-name', '@{upstream}'])).trim(),
        remoteTimeoutMs,
      );
    } catch (err) {
      throw new Error(
        `GIT_SYNC needs CONFIG_DIR inside a clone whose branch tracks a remote branch (what "git clone URL" makes); ${firstLine(err)}`,
        { cause: err },
      );
    }
  }

  private get remote(): string {
    return remoteOf(this.upstream).remote;
  }

  private get name(): string {
    return remoteOf(this.upstream).name;
  }

  async rev(ref: string): Promise<string> {
    return (await this.workTree.git(['rev-parse', ref])).trim();
  }

  /** The remote's head as the remote says now (one round trip, no objects); '' when the branch is gone. */
  async remoteHead(): Promise<string> {
    return (
      (
        await this.workTree.git(['ls-remote', '--quiet', this.remote, `refs/heads/${this.name}`], {
          timeoutMs: this.remoteTimeoutMs,
        })
      ).split(/\s/)[0] ?? ''
    );
  }

  fetch(): Promise<string> {
    return this.workTree.git(['fetch', '--quiet', this.remote, this.name], { timeoutMs: this.remoteTimeoutMs });
  }

  /** Fetches the remote branch; false when the remote cannot be reached. */
  async fetched(): Promise<boolean> {
    return this.fetch().then(
      () => true,
      () => false,
    );
  }

  /**
   * Pushes `ref` (made on top of `base`) to the remote branch, only while the branch is at `base`:
   * git refuses what is not a fast-forward, and the lease refuses to make a branch someone deleted.
   */
  push(ref: string, base: string): Promise<string> {
    const branch = `refs/heads/${this.name}`;
    return this.workTree.git(
      ['push', '--quiet', `--force-with-lease=${branch}:${base}`, this.remote, `${ref}:${branch}`],
      { timeoutMs: this.remoteTimeoutMs },
    );
  }

  /** Runs `git fast-import` on `input` (commits it makes on a ref of its own). */
  fastImport(input: Buffer): Promise<string> {
    return this.workTree.git(['fast-import', '--quiet', '--force', '--date-format=now'], { input });
  }

  /** The commits HEAD holds that the remote branch as last fetched does not: none unless its history was rewritten. */
  async dropped(): Promise<DroppedCommit[]> {
    const log = await this.workTree.git(['log', '--format=%H%x1f%an <%ae>%x1f%s%x1e', `${this.upstream}..HEAD`]);
    return log
      .split('\x1e')
      .map((r) => r.trim())
      .filter((r) => r !== '')
      .map((r) => {
        const [sha = '', author = '', subject = ''] = r.split('\x1f');
        return { sha, author, subject };
      });
  }

  /** The branch, git's index and the work tree to the remote branch as last fetched. */
  resetHard(): Promise<string> {
    return this.workTree.git(['reset', '--hard', '--quiet', this.upstream]);
  }

  /** The branch and git's index to `ref`; the work tree is left as it is. */
  moveTo(ref: string): Promise<string> {
    return this.workTree.indexLock.ours(() => this.workTree.git(['reset', '--quiet', ref]));
  }

  async behind(): Promise<number> {
    return Number((await this.workTree.git(['rev-list', '--count', `HEAD..${this.upstream}`])).trim()) || 0;
  }

  /** The files that differ between HEAD and the remote branch, and whether each is gone there. */
  async changes(): Promise<Change[]> {
    const fields = (
      await this.workTree.git(['diff', '--name-status', '--no-renames', '-z', 'HEAD', this.upstream])
    ).split('\0');
    const changes: Change[] = [];
    for (let i = 0; i + 1 < fields.length; i += 2)
      changes.push({ deleted: fields[i] === 'D', rel: fields[i + 1] as string });
    return changes;
  }

  /** To the remote branch, bringing in only `changes`: every other file on disk, a write not pushed yet, stays. */
  async moveKeepingOthers(changes: Change[]): Promise<void> {
    await this.workTree.git(['reset', '--quiet', this.upstream]);
    const present = changes.filter((c) => !c.deleted).map((c) => c.rel);
    if (present.length > 0) await this.workTree.git(['checkout', this.upstream, '--', ...present]);
    for (const change of changes.filter((c) => c.deleted))
      rmSync(path.join(this.workTree.top, change.rel), { force: true });
  }
}
