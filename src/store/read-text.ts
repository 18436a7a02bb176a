/**
 * How the store reads a network file it has stat'ed: through one descriptor, the stat and the
 * bytes from the same open file, so the stamp (folder-listing.ts) describes exactly the text.
 */
import fs from 'node:fs';

/** Non-blocking, so a FIFO named like a network cannot hang the open. */
export const READ = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK;
export const READ_NOT_A_LINK = READ | fs.constants.O_NOFOLLOW;

/**
 * The first `size` bytes of `fd` (its size as fstat'ed, so the text is the bytes the stamp
 * describes), as UTF-8: readFileSync(fd) would stat the file a second time to learn its size.
 */
export function readText(fd: number, size: number): string {
  const bytes = Buffer.allocUnsafe(size);
  let read = 0;
  while (read < size) {
    const n = fs.readSync(fd, bytes, read, size - read, read);
    if (n === 0) break; // shorter than stat'ed: it was cut meanwhile (the watcher sees the stamp move)
    read += n;
  }
  return bytes.toString('utf8', 0, read);
}
