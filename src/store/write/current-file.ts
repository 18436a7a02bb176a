/**
 * The file a PATCH edits, read the way the read path reads it, and what the disk's refusals mean
 * to the client: an errno the client can do nothing about but wait is a 503, a family folder gone
 * (a git checkout) is a 404.
 */
import { NetcfgError } from '../../errors.js';
import type { ConfigFolder } from '../files/config-folder.js';
import { candidatesOf, type NetworkId } from '../files/layout.js';
import { isGone, folderPath } from '../files/folder-file.js';
import type { DiskSteps } from './disk-steps.js';

/** The file as read for an edit. */
export interface Current {
  rel: string;
  /** The config folder's real path when the file was read: its temp file goes in there. */
  realRoot: string;
  /** Its path with every link resolved: the write goes there, so a link stays a link. */
  abs: string;
  mode: number;
  bytes: Buffer;
}

/**
 * errno codes that mean "the disk said no", answered 503 rather than 500: it is full, failing or
 * read-only, or shaped otherwise than netcfg needs (a file where its `.tmp/` or a folder should be).
 */
const STORAGE_CODES = new Set([
  'ENOSPC',
  'EDQUOT',
  'EIO',
  'EROFS',
  'EACCES',
  'EPERM',
  'EMFILE',
  'ENFILE',
  'EBUSY',
  'EAGAIN',
  'EEXIST',
  'ENOTDIR',
  'EISDIR',
  'ELOOP',
]);

/**
 * The network's file as it is now; null when neither `.yaml` nor `.yml` is there. What the read
 * path would not serve is refused before a byte is read (folder-file.ts), and nothing is read or
 * written through a config folder git made a link (config-folder.ts).
 */
export async function readCurrent(
  folder: ConfigFolder,
  fs: DiskSteps,
  id: NetworkId,
  onRefused: (message: string) => void,
): Promise<Current | null> {
  const state = folder.check();
  if (!state.ok && state.kind === 'missing') return null;
  const realRoot = state.ok ? state.real : folder.forWriting(); // forWriting() throws why
  for (const { rel } of candidatesOf(id)) {
    try {
      const abs = folderPath(realRoot, rel);
      if (abs === null) continue;
      const stat = await fs.stat(abs);
      const bytes = await fs.readFile(abs, rel);
      return { rel, realRoot, abs, mode: stat.mode & 0o7777, bytes };
    } catch (err) {
      if (isGone(err)) continue;
      throw storageError(err, `read ${rel}`, onRefused);
    }
  }
  return null;
}

/** The client's view of a failed disk call; `onRefused` hears what the disk refused, for readiness. */
export function storageError(err: unknown, what: string, onRefused: (message: string) => void): Error {
  if (err instanceof NetcfgError) return err;
  // The family folder went away (a git checkout): the network is gone.
  if (isGone(err)) return fileGone();
  const code = (err as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
  if (!STORAGE_CODES.has(code)) return err as Error;
  const message = `The disk refused to ${what} (${code}); the file is unchanged. Retry later.`;
  onRefused(message);
  return new NetcfgError('STORAGE_UNAVAILABLE', message, { cause: err });
}

export function fileGone(): NetcfgError {
  return new NetcfgError(
    'NETWORK_NOT_FOUND',
    'The file of this network was deleted while it was being written; nothing was written.',
  );
}
