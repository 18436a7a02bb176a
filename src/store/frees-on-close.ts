/**
 * Where a disk thread may keep a replaced file open across its rename (fs-seam.ts:
 * renameIfUnchangedSync), so that the inode is freed at a close after the write's answer rather
 * than inside the rename: a folder on a local file system.
 */
import { statfsSync } from 'node:fs';

/**
 * statfs types of the local file systems on which a file replaced while open is simply kept until
 * its close: ext2/3/4, xfs, btrfs, tmpfs, overlayfs, zfs. Not NFS, where the client renames an
 * open file aside (`.nfsXXXX`, one more round trip, a stray name in the folder until the close),
 * nor SMB, where a rename over an open file can fail: there the replaced file is closed before.
 */
const FREES_ON_CLOSE = new Set([0xef53, 0x58465342, 0x9123683e, 0x01021994, 0x794c7630, 0x2fc12fc1]);
const freesOnCloseByDir = new Map<string, boolean>();

/** Whether a file replaced in `dir` may be held open across the rename (see FREES_ON_CLOSE); asked once per folder. */
export function freesOnClose(dir: string): boolean {
  let known = freesOnCloseByDir.get(dir);
  if (known === undefined) {
    try {
      known = FREES_ON_CLOSE.has(statfsSync(dir).type);
    } catch {
      return false; // not there now: asked again next time
    }
    freesOnCloseByDir.set(dir, known);
  }
  return known;
}
