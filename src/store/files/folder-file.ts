/**
 * What netcfg reads: a regular file inside the config folder once every link (of the file or its
 * family folder) is resolved, of at most MAX_FILE_BYTES. The read path (the loader and the
 * watcher: readFolderFileSync) and the write path (a PATCH: folderPath and readRegularFile)
 * apply the same rule, so a FIFO, a device, a socket or a link to /dev/zero named like a network
 * is reported and never read, and never hangs an open (opened without blocking). A network file
 * is a few hundred bytes: these are synchronous calls of microseconds (see write/disk-steps.ts).
 */
import fs, { constants } from 'node:fs';
import path from 'node:path';
import { NetcfgError } from '../../errors.js';
import { isLink, lstatOrNull } from './config-folder.js';
import { stampOf, stampOfStats } from './folder-listing.js';
import { isInside } from './layout.js';

/** A file larger than this is reported, not parsed: a network is a few hundred bytes. */
export const MAX_FILE_BYTES = 1024 * 1024;

/** Non-blocking, so a FIFO named like a network cannot hang the open. */
const READ = constants.O_RDONLY | constants.O_NONBLOCK;
export const READ_REGULAR = READ | constants.O_NOFOLLOW;
const OUTSIDE =
  'symbolic link (of the file or its family folder) to outside the config folder; netcfg does not follow it';

/** What the read path found at one candidate file of a network. */
export interface FileLook {
  rel: string;
  /** Identity of what was read (folder-listing.ts): '' when nothing is there. */
  stamp: string;
  text?: string;
  /** Why the file cannot be read as a network at all (too big, a link out of the folder...). */
  unreadable?: string;
}

/**
 * The file `rel` of the config folder as the read path sees it: absent, unreadable (and why), or
 * its text. `realRoot` is the folder's real path, checked by the caller (config-folder.ts). A file
 * that is no link, in a family folder that is none (`familyLinked`, when the caller knows it), is
 * opened at once without following a link; only a link is resolved and checked.
 */
export function readFolderFileSync(realRoot: string, rel: string, familyLinked?: boolean): FileLook {
  const abs = path.join(realRoot, rel);
  let fd: number;
  try {
    fd = openFolderFile(realRoot, abs, familyLinked ?? lstatOrNull(path.dirname(abs))?.isSymbolicLink() ?? false);
  } catch (err) {
    if (isGone(err) && !isLink(abs)) return { rel, stamp: '' };
    const unreadable = err instanceof NotReadable ? OUTSIDE : `cannot be read: ${codeOf(err)}`;
    return { rel, stamp: stampOf(abs) || 'unreadable', unreadable };
  }
  try {
    const st = fs.fstatSync(fd, { bigint: true });
    const stamp = stampOfStats(st);
    if (!st.isFile()) return { rel, stamp, unreadable: 'not a regular file' };
    if (st.size > BigInt(MAX_FILE_BYTES))
      return {
        rel,
        stamp,
        unreadable: `the file is ${st.size} bytes; a network file may be at most ${MAX_FILE_BYTES} bytes`,
      };
    return { rel, stamp, text: readSize(fd, Number(st.size)).toString('utf8') };
  } catch (err) {
    return { rel, stamp: stampOf(abs) || 'unreadable', unreadable: `cannot be read: ${codeOf(err)}` };
  } finally {
    fs.closeSync(fd);
  }
}

class NotReadable extends Error {}

/** A descriptor of `abs`, opened without blocking; a link (of the file or its family folder) only if it stays inside `realRoot`. */
function openFolderFile(realRoot: string, abs: string, familyLinked: boolean): number {
  if (!familyLinked) {
    try {
      return fs.openSync(abs, READ_REGULAR);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOOP') throw err; // ELOOP: the file is a link
    }
  }
  let real: string;
  try {
    real = fs.realpathSync.native(abs);
  } catch (err) {
    throw isGone(err) ? err : new NotReadable(); // a link that loops
  }
  if (!isInside(realRoot, real)) throw new NotReadable();
  return fs.openSync(real, READ);
}

/**
 * The first `size` bytes of `fd`, as stat'ed through it, so the stamp describes exactly these
 * bytes. A file cut meanwhile gives fewer: the watcher sees its stamp move, a PATCH's byte check
 * before the rename sees the change, and either looks again.
 */
function readSize(fd: number, size: number): Buffer {
  const bytes = Buffer.alloc(size);
  let read = 0;
  while (read < size) {
    const n = fs.readSync(fd, bytes, read, size - read, read);
    if (n === 0) break;
    read += n;
  }
  return bytes.subarray(0, read);
}

function codeOf(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
}
/** What realpath or an O_NOFOLLOW open answer for a link that loops or cannot be followed. */
const LEADS_NOWHERE = new Set(['ELOOP', 'ENAMETOOLONG']);

function notReadable(rel: string, reason: string): NetcfgError {
  return new NetcfgError(
    'NETWORK_NOT_FOUND',
    `${rel} is ${reason}, so netcfg neither serves nor writes it (GET /api/v1/ready lists it); nothing was written.`,
  );
}

/**
 * Where the file `rel` of the config folder (whose checked real path is `realRoot`) really is (a
 * link inside the folder is written through, and stays a link), or null when nothing is there.
 * NETWORK_NOT_FOUND for what the read path would not serve: a link that leads out of the folder
 * or nowhere, or anything but a regular file.
 */
export function folderPath(realRoot: string, rel: string): string | null {
  const abs = path.join(realRoot, rel);
  let real: string;
  try {
    real = fs.realpathSync.native(abs);
  } catch (err) {
    if (LEADS_NOWHERE.has((err as NodeJS.ErrnoException).code ?? ''))
      throw notReadable(rel, 'a symbolic link that loops or leads nowhere');
    if (!isGone(err)) throw err;
    // A link left dangling is there and not served; anything else (a file git put back a moment
    // later) counts as absent, for the caller to look again.
    if (isLink(abs)) throw notReadable(rel, 'a symbolic link that leads nowhere');
    return null;
  }
  if (!isInside(realRoot, real))
    throw notReadable(rel, 'a symbolic link (of the file or its family folder) to outside the config folder');
  if (!fs.lstatSync(real).isFile()) throw notReadable(rel, 'not a regular file');
  return real;
}

/**
 * The bytes of `file`, a path folderPath() gave: opened without following a link and without
 * blocking, and read only if it is still a regular file of at most MAX_FILE_BYTES (something
 * may have replaced it since it was looked at).
 */
export function readRegularFile(file: string, rel = file): Buffer {
  let fd: number;
  try {
    fd = fs.openSync(file, READ_REGULAR);
  } catch (err) {
    // A link or a socket put there since folderPath() looked.
    const code = (err as NodeJS.ErrnoException).code ?? '';
    throw LEADS_NOWHERE.has(code) || code === 'ENXIO' ? notReadable(rel, 'not a regular file') : err;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw notReadable(rel, 'not a regular file');
    if (st.size > MAX_FILE_BYTES) {
      throw new NetcfgError(
        'FILE_INVALID',
        `${rel} is ${st.size} bytes; a network file may be at most ${MAX_FILE_BYTES} bytes, so it is not served and cannot be edited; fix it in git.`,
      );
    }
    return readSize(fd, st.size);
  } finally {
    fs.closeSync(fd);
  }
}

/** Whether `err` says the file, or a folder on its path, is not there (a git checkout removed it). */
export function isGone(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
