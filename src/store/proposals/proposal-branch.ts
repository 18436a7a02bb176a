/**
 * A proposal's git: a commit of one file's new text on top of the tracked branch's remote head,
 * pushed to a branch of its own (proposal-name.ts), made without touching what GIT_SYNC serves:
 * the work tree, git's index, HEAD and the tracked branch stay as they are. The remote head is
 * fetched to a ref of its own (removed after), the commit is made with git's plumbing in an index
 * of its own (GIT_INDEX_FILE), and the push carries a lease on the branch: a second proposal moves
 * it, and someone else's push that lands in between is not overwritten (PROPOSAL_BRANCH_MOVED).
 * Every command that talks to the remote has the remote deadline (GIT_REMOTE_TIMEOUT_MS).
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { NetcfgError } from '../../errors.js';
import { KeyedQueues } from '../../serial-queue.js';
import { firstLine } from '../git/git-process.js';
import { remoteOf } from '../git/tracked-branch.js';
import type { WorkTree } from '../git/work-tree.js';

/** The file a proposal edits, as the tracked branch's remote head holds it. */
export interface BaseFile {
  /** Its path from the clone's top. */
  rel: string;
  bytes: Buffer;
  /** `100644`, or `100755` for an executable file. */
  mode: string;
}

/** What a proposal commits of the file: its new text, the commit's message and author (`Name <email>`; netcfg commits). */
export interface ProposalCommit {
  text: string;
  message: string;
  author: string;
}

export interface ProposalRequest {
  /** The branch, under `refs/heads/` (proposal-name.ts). */
  branch: string;
  /** Where the file may be, from the clone's top; the first the base holds is edited (`.yaml`, then `.yml`). */
  paths: string[];
  /** The commit to make of the file as the base holds it (null: it holds none of `paths`); throws to refuse. */
  make(file: BaseFile | null, base: string): ProposalCommit;
  /** The oid the caller last saw at the branch ('' for none); by default, what the remote says right before the push. */
  expected?: string | undefined;
}

export interface Proposed {
  branch: string;
  commit: string;
  /** The tracked branch's remote head the commit was made on. */
  base: string;
  /** Where the branch was before the push ('' : it was new), so a proposal that cannot be opened knows whether to delete it. */
  previous: string;
}

/** Where a proposal's base is fetched to, one ref per proposal (deleted after): never the clone's own refs. */
const BASE_REFS = 'refs/netcfg-proposals';

export class ProposalBranches {
  private readonly remote: string;
  /** The tracked branch's name on the remote (`main`): what a proposal's pull request goes into. */
  readonly tracked: string;
  /** Proposals to one branch from this process, one at a time: each one's lease is then the other's push. */
  private readonly turns = new KeyedQueues();

  constructor(
    private readonly workTree: WorkTree,
    /** `origin/main`: the remote branch GIT_SYNC follows, which a proposal is made on top of. */
    readonly upstream: string,
    private readonly remoteTimeoutMs: number,
  ) {
    ({ remote: this.remote, name: this.tracked } = remoteOf(upstream));
  }

  /** The clone's top: what a proposal's paths start from. */
  get top(): string {
    return this.workTree.top;
  }

  /** Commits what `request.make` makes of the file on top of the remote head and pushes it to `request.branch`, with a lease. */
  propose(request: ProposalRequest): Promise<Proposed> {
    return this.inTurn(request.branch, async () => {
      const baseRef = `${BASE_REFS}/${randomUUID()}`;
      try {
        const base = await this.fetchBase(baseRef);
        const file = await this.fileAt(base, request.paths);
        const made = request.make(file, base);
        const commit = await this.commitOnto(
          base,
          file?.rel ?? (request.paths[0] as string),
          file?.mode ?? '100644',
          made,
        );
        const expected = request.expected ?? (await this.remoteOid(request.branch));
        await this.pushLeased(request.branch, expected, `${commit}:refs/heads/${request.branch}`);
        return { branch: request.branch, commit, base, previous: expected };
      } finally {
        await this.workTree.git(['update-ref', '-d', baseRef]).catch(() => undefined);
      }
    });
  }

  /** Deletes `branch` on the remote while it is at `expected` (a pull request could not be opened for it); done when it is gone already. */
  deleteBranch(branch: string, expected: string): Promise<void> {
    return this.inTurn(branch, async () => {
      try {
        await this.pushLeased(branch, expected, `:refs/heads/${branch}`);
      } catch (err) {
        if (
          !(err instanceof NetcfgError && err.code === 'PROPOSAL_BRANCH_MOVED') ||
          (await this.remoteOid(branch)) !== ''
        )
          throw err;
      }
    });
  }

  /** The oid `branch` is at on the remote now ('' when there is none): one `git ls-remote`, no objects. */
  async remoteOid(branch: string): Promise<string> {
    const ref = `refs/heads/${branch}`;
    const out = await this.workTree
      .git(['ls-remote', '--quiet', this.remote, ref], { timeoutMs: this.remoteTimeoutMs })
      .catch((err: unknown) => {
        throw this.unavailable(err, `the lookup of ${branch}`);
      });
    // ls-remote matches the pattern against the end of each ref: only this one counts.
    const line = out.split('\n').find((l) => l.split('\t')[1] === ref);
    return line?.split('\t')[0] ?? '';
  }

  /** The tracked branch's remote head, fetched now to `ref`: the origin/ refs and FETCH_HEAD GIT_SYNC reads stay as they are. */
  private async fetchBase(ref: string): Promise<string> {
    const args = [
      'fetch',
      '--quiet',
      '--no-tags',
      '--no-write-fetch-head',
      '--refmap=',
      this.remote,
      `+refs/heads/${this.tracked}:${ref}`,
    ];
    await this.workTree.git(args, { timeoutMs: this.remoteTimeoutMs }).catch((err: unknown) => {
      throw this.unavailable(err, `the fetch of ${this.upstream}`);
    });
    return (await this.local(['rev-parse', '--verify', `${ref}^{commit}`], `read ${ref}`)).trim();
  }

  /** The first of `paths` that `base` holds, or null; a link or a submodule there is no file to edit. */
  private async fileAt(base: string, paths: string[]): Promise<BaseFile | null> {
    const listed = (
      await this.local(['ls-tree', '-z', '--long', base, '--', ...paths], `list ${paths.join(', ')}`)
    ).split('\0');
    const entries = new Map(
      listed
        .filter((l) => l !== '')
        .map((l) => [l.slice(l.indexOf('\t') + 1), l.slice(0, l.indexOf('\t')).split(/\s+/)]),
    );
    const rel = paths.find((p) => entries.has(p));
    if (rel === undefined) return null;
    const [mode = '', , oid = '', size = ''] = entries.get(rel) as string[];
    if (mode !== '100644' && mode !== '100755') {
      throw new NetcfgError(
        'FILE_INVALID',
        `${rel} is not a plain file on ${this.upstream} (a link or a submodule); edit it in git.`,
      );
    }
    const text = await this.local(['cat-file', 'blob', oid], `read ${rel}`);
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.length !== Number(size)) {
      throw new NetcfgError(
        'FILE_INVALID',
        `${rel} on ${this.upstream} is not UTF-8 text, so it cannot be edited safely; fix the file in git first.`,
      );
    }
    return { rel, bytes, mode };
  }

  /** One commit on top of `base` holding `made.text` at `rel` and nothing else new, made in an index of its own. */
  private async commitOnto(base: string, rel: string, mode: string, made: ProposalCommit): Promise<string> {
    const index = path.join(path.dirname(this.workTree.indexLock.file), `netcfg-proposal-${randomUUID()}.index`);
    const env = { GIT_INDEX_FILE: index };
    try {
      await this.local(['read-tree', base], 'read the base', env);
      // No --path: the bytes go in as they are, as a PATCH's commit holds them (no clean filter, no line-end rule).
      const blob = (await this.local(['hash-object', '-w', '--stdin'], `store ${rel}`, {}, made.text)).trim();
      await this.local(['update-index', '--add', '--cacheinfo', `${mode},${blob},${rel}`], `stage ${rel}`, env);
      const tree = (await this.local(['write-tree'], 'write the tree', env)).trim();
      const author = /^(.*) <([^<>]*)>$/.exec(made.author);
      const who = { ...env, GIT_AUTHOR_NAME: author?.[1] ?? made.author, GIT_AUTHOR_EMAIL: author?.[2] ?? '' };
      return (await this.local(['commit-tree', tree, '-p', base], 'commit the proposal', who, made.message)).trim();
    } finally {
      rmSync(index, { force: true });
      rmSync(`${index}.lock`, { force: true });
    }
  }

  /** Pushes `refspec` to `branch` while the remote holds it at `expected` ('' : while there is none); the clone keeps no ref of it. */
  private async pushLeased(branch: string, expected: string, refspec: string): Promise<void> {
    const ref = `refs/heads/${branch}`;
    const args = ['push', '--quiet', `--force-with-lease=${ref}:${expected}`, this.remote, refspec];
    await this.workTree.git(args, { timeoutMs: this.remoteTimeoutMs }).catch((err: unknown) => {
      const said = String((err as { stderr?: string }).stderr ?? '');
      if (/\(stale info\)|failed to update ref|cannot lock ref/.test(said)) {
        const message =
          `${branch} was moved on ${this.remote} by someone else while netcfg pushed to it (${firstLine(err)}); ` +
          'nothing was changed: look at the branch, then retry.';
        throw new NetcfgError('PROPOSAL_BRANCH_MOVED', message, { cause: err });
      }
      throw this.unavailable(err, `the push to ${branch}`);
    });
    // git keeps a remote-tracking ref of a branch it pushed to: the clone stays as GIT_SYNC left it.
    await this.workTree.git(['update-ref', '-d', `refs/remotes/${this.remote}/${branch}`]).catch(() => undefined);
  }

  /** A git command in the clone alone; what git refuses there is STORAGE_UNAVAILABLE. */
  private local(args: string[], what: string, env: NodeJS.ProcessEnv = {}, input?: string): Promise<string> {
    return this.workTree
      .git(args, { env, ...(input === undefined ? {} : { input: Buffer.from(input, 'utf8') }) })
      .catch((err: unknown) => {
        const message = `git could not ${what} for a proposal (${firstLine(err)}); nothing was proposed, retry later.`;
        throw new NetcfgError('STORAGE_UNAVAILABLE', message, { cause: err });
      });
  }

  private unavailable(err: unknown, doing: string): NetcfgError {
    const reason = (err as { reason?: string }).reason;
    if (reason === 'timeout') {
      const message =
        `${this.remote} gave no answer to ${doing} within ${this.remoteTimeoutMs} ms; nothing was proposed ` +
        '(a push may have landed: the next proposal moves its branch), retry later.';
      return new NetcfgError('GIT_REMOTE_UNAVAILABLE', message, { cause: err });
    }
    if (reason === 'aborted') {
      return new NetcfgError(
        'GIT_REMOTE_UNAVAILABLE',
        'netcfg is shutting down: nothing was proposed; retry (another replica may answer).',
      );
    }
    const message = `${this.remote} refused or could not be reached for ${doing} (${firstLine(err)}); nothing was proposed, retry later.`;
    return new NetcfgError('GIT_REMOTE_UNAVAILABLE', message, { cause: err });
  }

  private inTurn<T>(branch: string, fn: () => Promise<T>): Promise<T> {
    return this.turns.run(branch, fn);
  }
}
