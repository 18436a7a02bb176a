/**
 * What a PATCH may touch: only what the read path serves, a regular file inside the config folder
 * once every link (of the file or its family folder) is resolved. The write path decides it from
 * realpath and lstat before a byte is read, and reads through fs/promises, without following a
 * link and without blocking, so a FIFO, a device, a socket or a link to /dev/zero named like a
 * network costs a PATCH a few system calls and the event loop nothing.
 */
import { constants } from 'node:fs';
import { lstat, open, realpath } from 'node:fs/promises';
import path from 'node:path';
import { NetcfgError } from '../errors.js';
import { isInside } from './network-id.js';
import { MAX_FILE_BYTES } from './network-file.js';

const READ_REGULAR = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;
/** What realpath or an O_NOFOLLOW open answer for a link that loops or cannot be followed. */
const LEADS_NOWHERE = new Set(['ELOOP', 'ENAMETOOLONG']);

function notServed(rel: string, reason: string): NetcfgError {
  return new NetcfgError('NETWORK_NOT_FOUND', `${rel} is ${reason}, so netcfg neither serves nor writes it (GET /api/v1/ready lists it); nothing was written.`);
}

/**
 * Where the file `rel` of `root` really is (a link inside the folder is written through, and
 * stays a link), or null when nothing is there. NETWORK_NOT_FOUND for what the read path would
 * not serve: a link that leads out of the folder or nowhere, or anything but a regular file.
 */
export async function servedPath(root: string, rel: string): Promise<string | null> {
  const abs = path.join(root, rel);
  let real: string;
  try {
    real = await realpath(abs);
  } catch (err) {
    if (LEADS_NOWHERE.has((err as NodeJS.ErrnoException).code ?? '')) throw notServed(rel, 'a symbolic link that loops or leads nowhere');
    if (!isGone(err)) throw err;
    // A link left dangling is there and not served; anything else (a file git put back a moment
    // later) counts as absent, for the caller to look again.
    const link = await lstat(abs).then(
      (st) => st.isSymbolicLink(),
      () => false,
    );
    if (link) throw notServed(rel, 'a symbolic link that leads nowhere');
    return null;
  }
  // Not cached: a deployment may swap the folder's own link to a new checkout.
  if (!isInside(await realpath(root), real)) throw notServed(rel, 'a symbolic link (of the file or its family folder) to outside the config folder');
  if (!(await lstat(real)).isFile()) throw notServed(rel, 'not a regular file');
  return real;
}

/**
 * The bytes of `file`, a path servedPath() gave: opened without following a link and without
 * blocking, and read only if it is still a regular file of at most MAX_FILE_BYTES (something
 * may have replaced it since it was looked at).
 */
export async function readRegularFile(file: string, rel = file): Promise<Buffer> {
  const handle = await open(file, READ_REGULAR).catch((err: NodeJS.ErrnoException) => {
    // A link or a socket put there since servedPath() looked.
    throw LEADS_NOWHERE.has(err.code ?? '') || err.code === 'ENXIO' ? notServed(rel, 'not a regular file') : err;
  });
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw notServed(rel, 'not a regular file');
    if (st.size > MAX_FILE_BYTES) {
      throw new NetcfgError('FILE_INVALID', `${rel} is ${st.size} bytes; a network file may be at most ${MAX_FILE_BYTES} bytes, so it is not served and cannot be edited; fix it in git.`);
    }
    const bytes = Buffer.alloc(st.size);
    let read = 0;
    while (read < st.size) {
      const { bytesRead } = await handle.read(bytes, read, st.size - read, read);
      if (bytesRead === 0) break; // cut meanwhile: the byte check before the rename catches it
      read += bytesRead;
    }
    return bytes.subarray(0, read);
  } finally {
    await handle.close();
  }
}

/** Whether `err` says the file, or a folder on its path, is not there (a git checkout removed it). */
export function isGone(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
