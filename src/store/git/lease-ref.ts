/**
 * The relayer lease with GIT_SYNC: a ref of the remote, `refs/netcfg/relayer-lease`, pointing at a
 * blob of JSON (`holder`, `expires_at`). It is outside refs/heads, so it is in no branch's history,
 * and the clone's pulls (which fetch the tracked branch by name) never fetch it. It is written only
 * by `git push --force-with-lease=<ref>:<expected>`: the remote refuses the push when the ref is no
 * longer what this replica read, so of two replicas racing from one version exactly one wins. Read
 * with `git ls-remote` (one round trip); the blob is fetched only when the ref moved. Every command
 * goes through git-process.ts with the remote's deadline.
 */
import { randomBytes } from 'node:crypto';
import { firstLine, GitError, runGit } from './git-process.js';
import { claimOf, type LeaseClaim, type LeaseSlot } from '../files/lease-file.js';

export const LEASE_REF = 'refs/netcfg/relayer-lease';

/** Where the clone is and which remote it follows; throws until GIT_SYNC has opened the clone. */
export type CloneOf = () => { top: string; remote: string };

const MAX_BYTES = 64 * 1024;

export class LeaseRef implements LeaseSlot {
  /** The last blob read: fetched again only when the ref points elsewhere. */
  private last: { version: string; claim: LeaseClaim } | null = null;

  constructor(
    private readonly clone: CloneOf,
    private readonly remoteTimeoutMs: number,
  ) {}

  async read(): Promise<{ version: string; claim: LeaseClaim } | null> {
    const { remote } = this.clone();
    const version = (await this.git(['ls-remote', '--quiet', remote, LEASE_REF], true)).split(/\s/)[0] ?? '';
    if (version === '') return null;
    if (this.last?.version === version) return this.last;
    // No FETCH_HEAD: the pull's fetch may run at the same time, and no ref is made for the blob.
    await this.git(
      ['-c', 'gc.auto=0', 'fetch', '--quiet', '--no-write-fetch-head', '--no-tags', remote, LEASE_REF],
      true,
    );
    this.last = { version, claim: claimOf(await this.git(['cat-file', 'blob', version], false)) };
    return this.last;
  }

  async swap(expected: string | null, claim: LeaseClaim): Promise<string | null> {
    const { remote } = this.clone();
    // A nonce: each write is a new blob, so the ref moves at every renewal and those standing by see it move.
    const text = `${JSON.stringify({ ...claim, nonce: randomBytes(8).toString('hex') })}\n`;
    const version = (await this.git(['hash-object', '-w', '--stdin'], false, Buffer.from(text))).trim();
    try {
      await this.git(
        [
          'push',
          '--quiet',
          '--no-verify',
          `--force-with-lease=${LEASE_REF}:${expected ?? ''}`,
          remote,
          `${version}:${LEASE_REF}`,
        ],
        true,
      );
    } catch (err) {
      // Refused: the ref is not what this replica read any more; another replica wrote it first.
      if (
        err instanceof GitError &&
        err.reason === 'exit' &&
        /stale info|\[rejected\]|failed to update ref|cannot lock ref/.test(err.stderr)
      )
        return null;
      throw new Error(`the relayer lease could not be written to ${remote}: ${firstLine(err)}`, { cause: err });
    }
    this.last = { version, claim };
    return version;
  }

  private git(args: string[], remote: boolean, input?: Buffer): Promise<string> {
    const { top } = this.clone();
    return runGit({
      args: ['-C', top, ...args],
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
      input,
      timeoutMs: remote ? this.remoteTimeoutMs : 60_000,
      maxBytes: MAX_BYTES,
    });
  }
}
