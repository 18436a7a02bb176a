/**
 * The disk's steps for a durable replace, as the disk loop times them and the write floor makes
 * them: create `tmp`, write `text`, fsync it, close, rename it over `target`, fsync the folder of
 * `target`. Synchronous: the fastest one writer can go. One definition, so the floor does exactly
 * the loop's steps.
 */
import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';

export function replaceDurably(tmp: string, target: string, text: string): void {
  const fd = openSync(tmp, 'wx', 0o644);
  writeSync(fd, text);
  fsyncSync(fd);
  closeSync(fd);
  renameSync(tmp, target);
  const dirFd = openSync(path.dirname(target), 'r');
  fsyncSync(dirFd);
  closeSync(dirFd);
}
