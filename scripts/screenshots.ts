/**
 * The README's screenshots of the console: the built server on a copy of the shipped
 * config/networks (nothing is written to the real one), in Debian's chromium.
 * Run `npm run build && npx tsx scripts/screenshots.ts`; it writes docs/console-*.png.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const folder = mkdtempSync(path.join(tmpdir(), 'netcfg-shots-'));
cpSync(path.join(root, 'config', 'networks'), folder, { recursive: true });

const server = spawn(process.execPath, [path.join(root, 'dist', 'src', 'main.js')], {
  env: { PATH: process.env.PATH ?? '', CONFIG_DIR: folder, PORT: '0', INDEX_CACHE: 'off' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise<string>((resolve) => {
  createInterface({ input: server.stdout! }).on('line', (line) => {
    const entry = JSON.parse(line) as { msg?: string; url?: string };
    if (entry.msg === 'listening') resolve(String(entry.url));
  });
});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
});
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 640 }, colorScheme: 'light' });
  await page.goto(url);
  await page.getByRole('link', { name: 'evm:sepolia' }).waitFor();
  await page.getByLabel('Filter').fill('evm');
  await page.screenshot({ path: path.join(root, 'docs', 'console-overview.png') });
  await page.getByRole('link', { name: 'evm:sepolia' }).click();
  await page.getByLabel('RPC URL 2').fill('ftp://sepolia.example.com');
  await page.getByRole('alert').first().waitFor();
  await page.screenshot({ path: path.join(root, 'docs', 'console-network.png'), fullPage: true });
} finally {
  await browser.close();
  server.kill('SIGTERM');
  rmSync(folder, { recursive: true, force: true });
}
