/**
 * The relayer lease without GIT_SYNC: `relayer-lease.json` in the config folder's `.locks/`, beside
 * the write locks (the watcher and git ignore it), shared by every replica on the volume. A swap is
 * a compare-and-swap: under a proper-lockfile lock it reads the file, compares its version (a
 * hash of its bytes, which hold a random nonce) and writes a temp file it renames over it, so a
 * reader never sees half a file and of two replicas swapping from one version exactly one wins.
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import lockfile from 'proper-lockfile';

/** What the slot holds: who holds the relayer lease (null: given up) and until when by the writer's clock. */
export interface LeaseClaim {
  holder: string | null;
  expires_at: string | null;
}

/** Where the relayer lease is kept: read it, and write it only over the version expected. */
export interface LeaseSlot {
  read(): Promise<{ version: string; claim: LeaseClaim } | null>;
  /** The new version, or null when the slot no longer holds `expected` (null: empty). */
  swap(expected: string | null, claim: LeaseClaim): Promise<string | null>;
}

export const LEASE_FILE = 'relayer-lease.json';

export class LeaseFile implements LeaseSlot {
  constructor(
    /** The folder of the write locks (`<config>/.locks`), given at each call: the config folder's checked real path. */
    private readonly dirOf: () => string,
    /** A lock untouched this long was left by a killed process (LOCK_STALE_MS). */
    private readonly staleMs: number,
  ) {}

  read(): Promise<{ version: string; claim: LeaseClaim } | null> {
    return Promise.resolve(this.readNow());
  }

  async swap(expected: string | null, claim: LeaseClaim): Promise<string | null> {
    const dir = this.dirOf();
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, LEASE_FILE);
    const release = await this.lock(file);
    try {
      if ((this.readNow()?.version ?? null) !== expected) return null;
      const text = `${JSON.stringify({ ...claim, nonce: randomBytes(8).toString('hex') })}\n`;
      const temp = path.join(dir, `.${LEASE_FILE}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
      const fd = openSync(temp, 'wx', 0o644);
      try {
        writeSync(fd, text);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temp, file);
      return versionOf(text);
    } finally {
      await release().catch(() => undefined);
    }
  }

  private readNow(): { version: string; claim: LeaseClaim } | null {
    let text: string;
    try {
      text = readFileSync(path.join(this.dirOf(), LEASE_FILE), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    return { version: versionOf(text), claim: claimOf(text) };
  }

  /** The slot's lock; a swap holds it for one small write, so a short wait with backoff is enough. */
  private async lock(file: string): Promise<() => Promise<void>> {
    for (let wait = 5; ; wait = Math.min(200, wait * 2)) {
      try {
        const { staleMs } = this;
        const options = {
          lockfilePath: `${file}.lock`,
          realpath: false,
          stale: staleMs,
          update: Math.floor(staleMs / 4),
          retries: 0,
        };
        return await lockfile.lock(file, { ...options, onCompromised: () => undefined });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
      }
      await delay(wait * (0.5 + Math.random()));
    }
  }
}

export function versionOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 40);
}

/** The claim in a slot's text; anything else reads as a lease given up (a replica then takes it). */
export function claimOf(text: string): LeaseClaim {
  try {
    const parsed = JSON.parse(text) as Partial<LeaseClaim>;
    return {
      holder: typeof parsed.holder === 'string' ? parsed.holder : null,
      expires_at: typeof parsed.expires_at === 'string' ? parsed.expires_at : null,
    };
  } catch {
    return { holder: null, expires_at: null };
  }
}
