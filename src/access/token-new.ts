/**
 * `netcfg token new`: a fresh token and the API_TOKENS_FILE entry to paste. The token is 32 random
 * bytes (base64url) after a fixed prefix, so secret scanners can find a leaked one; it is printed
 * once and only its SHA-256 is kept. The entry is checked with the file's own parser before it is
 * printed, so what is pasted is what the server accepts.
 */
import { createHash, randomBytes } from 'node:crypto';
import { parseTokensFile } from './tokens-file.js';

/** What every netcfg token starts with (a secret scanner's pattern: `ncfg_[A-Za-z0-9_-]{43}`). */
export const TOKEN_PREFIX = 'ncfg_';

export function sha256Hex(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new token for `name` with `role` (and `networks` globs, when given), and its file entry; or why not. */
export function newToken(
  name: string,
  role: string,
  networks: string[],
): { token: string; entry: string } | { problem: string } {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const lines = [
    `  - name: ${JSON.stringify(name)}`,
    `    sha256: "${sha256Hex(token)}"`,
    `    role: ${JSON.stringify(role)}`,
  ];
  if (networks.length > 0) lines.push(`    networks: [${networks.map((g) => JSON.stringify(g)).join(', ')}]`);
  const entry = `${lines.join('\n')}\n`;
  const { problems } = parseTokensFile(`tokens:\n${entry}`);
  if (problems[0]) return { problem: problems[0].message };
  return { token, entry };
}
