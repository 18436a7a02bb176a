/**
 * Real folders for tests: a fresh temp config folder per test, filled with network files.
 */
import { mkdtempSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface NetworkFileOptions {
  rpc_urls?: unknown[];
  extra?: string;
}

/** A small valid network file (YAML text), with a comment so preservation can be checked. */
export function networkYaml(options: NetworkFileOptions = {}): string {
  const urls = options.rpc_urls ?? ['https://rpc.example.com', { url: 'https://backup.example.com', weight: 30 }];
  const lines = ['# test network', 'rpc_urls:'];
  for (const entry of urls) {
    if (typeof entry === 'string') lines.push(`  - ${entry}`);
    else {
      const { url, weight } = entry as { url: string; weight: number };
      lines.push(`  - url: ${url}`, `    weight: ${weight}`);
    }
  }
  lines.push('chain_id: 11155111 # sepolia', 'is_testnet: true');
  if (options.extra) lines.push(options.extra);
  return `${lines.join('\n')}\n`;
}

/** Creates a temp config folder holding `files` (relative path -> content). */
export function makeConfigDir(files: Record<string, string> = {}): string {
  const root = mkdtempSync(path.join(tmpdir(), 'netcfg-test-'));
  for (const [rel, content] of Object.entries(files)) writeFile(root, rel, content);
  return root;
}

export function writeFile(root: string, rel: string, content: string): void {
  const file = path.join(root, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

/** `a` and `b` in `folder` trade places in three renames: `a` is replaced under its own name (through `.swap`). */
export function swapEntries(folder: string, a: string, b: string): void {
  renameSync(path.join(folder, a), path.join(folder, '.swap'));
  renameSync(path.join(folder, b), path.join(folder, a));
  renameSync(path.join(folder, '.swap'), path.join(folder, b));
}

export function removeDir(root: string): void {
  rmSync(root, { recursive: true, force: true });
}

/** The usual three networks. */
export function standardFiles(): Record<string, string> {
  return {
    'evm/sepolia.yaml': networkYaml(),
    'evm/mainnet.yaml': networkYaml({ rpc_urls: ['https://eth.example.com'] }),
    'solana/devnet.yaml': networkYaml({ rpc_urls: [{ url: 'https://api.devnet.solana.com', weight: 100 }] }),
  };
}
