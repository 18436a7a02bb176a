/**
 * The operator console's built files (dist/console, made by scripts/build-console.ts), read once
 * at start: the HTTP layer serves them from memory and never touches the disk for them.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from './paths.js';

export interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

/** File name (no folders) -> its bytes; `index.html` is the page. */
export type ConsoleAssets = ReadonlyMap<string, Asset>;

export const CONSOLE_DIR = path.join(PROJECT_ROOT, 'dist', 'console');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** The console's files, or null when it was not built. */
export function loadConsoleAssets(dir = CONSOLE_DIR): ConsoleAssets | null {
  if (!existsSync(path.join(dir, 'index.html'))) return null;
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(dir)) {
    const type = TYPES[path.extname(name)];
    if (!type) continue;
    const body = readFileSync(path.join(dir, name));
    assets.set(name, { body, type, etag: `"${createHash('sha256').update(body).digest('base64url')}"` });
  }
  return assets;
}
