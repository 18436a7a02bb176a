/**
 * What every console test needs, registered as mocha hooks in the describe that calls it: one
 * Chromium for the file, and per test a fresh config folder (and a tokens file when asked), the
 * built netcfg on a loopback port and a browser context, all stopped after it. A test written with
 * `test` fails on any console error in its page, but for those it allows (an HTTP status it
 * provoked on purpose).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openPage, unexpectedErrors, type ConsolePage } from './browser.js';
import { startChild, type ChildServer } from './child-server.js';
import { makeConfigDir, removeDir } from './fixtures.js';
import { initRepo } from './git-repo.js';

/** A named token of API_TOKENS_FILE, as the harness writes it. */
export interface TestToken {
  name: string;
  token: string;
  role: 'read' | 'write' | 'admin';
}

/** The named tokens the console's tests sign in with: one that may only read, one that may write. */
export const READER: TestToken = {
  name: 'relayer-eu',
  token: 'ncfg_console-reader-0123456789abcdef0123456789',
  role: 'read',
};
export const WRITER: TestToken = {
  name: 'ops-alice',
  token: 'ncfg_console-writer-0123456789abcdef0123456789',
  role: 'write',
};

export interface ConsoleHarness {
  /** The built netcfg over a new folder holding `files` (a git repository with `repo`, API_TOKENS_FILE of `tokens`); its URL. */
  start(
    files: Record<string, string>,
    env?: Record<string, string>,
    options?: { repo?: boolean; tokens?: TestToken[] },
  ): Promise<string>;
  /** Stops the server and starts another on the same folder and port, with `env`. */
  restart(env: Record<string, string>): Promise<void>;
  open(url: string, viewport?: { width: number; height: number }): Promise<Page>;
  root(): string;
  server(): ChildServer;
  read(rel: string): string;
  write(rel: string, text: string): void;
  /** Console errors this test provokes on purpose: an HTTP status, or a pattern. */
  allowErrors(...allowed: Array<number | RegExp>): void;
  test(name: string, fn: () => Promise<void>): void;
}

export function consoleHarness(): ConsoleHarness {
  let browser: Browser;
  let root = '';
  let tokensDir = '';
  let env: Record<string, string> = {};
  let server: ChildServer | undefined;
  let tab: ConsolePage | undefined;
  let allowed: Array<number | RegExp> = [];

  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });
  beforeEach(() => {
    allowed = [];
  });
  afterEach(async () => {
    await tab?.context.close();
    tab = undefined;
    await server?.stop();
    server = undefined;
    removeDir(root);
    if (tokensDir) rmSync(tokensDir, { recursive: true, force: true });
    tokensDir = '';
  });

  return {
    async start(files, more = {}, options = {}) {
      root = makeConfigDir(files);
      if (options.repo) initRepo(root);
      env = { CONFIG_DIR: root, ...more };
      if (options.tokens) {
        // Outside the config folder: a file in it would be reported as one that is not a network.
        tokensDir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-console-tokens-'));
        env.API_TOKENS_FILE = path.join(tokensDir, 'tokens.yaml');
        const sha = (token: string): string => createHash('sha256').update(token).digest('hex');
        writeFileSync(
          env.API_TOKENS_FILE,
          `tokens:\n${options.tokens.map((t) => `  - name: ${t.name}\n    sha256: "${sha(t.token)}"\n    role: ${t.role}\n`).join('')}`,
        );
      }
      server = await startChild(env);
      return server.url;
    },
    async restart(more) {
      const port = new URL(server!.url).port;
      await server!.stop();
      server = await startChild({ ...env, ...more, PORT: port });
    },
    async open(url, viewport) {
      tab = await openPage(browser, url, viewport);
      return tab.page;
    },
    root: () => root,
    server: () => server!,
    read: (rel) => readFileSync(path.join(root, rel), 'utf8'),
    write: (rel, text) => writeFileSync(path.join(root, rel), text),
    allowErrors(...more) {
      allowed.push(...more);
    },
    test(name, fn) {
      it(name, async () => {
        await fn();
        const statuses = allowed.filter((a): a is number => typeof a === 'number');
        const errors = unexpectedErrors(tab?.errors ?? [], statuses).filter(
          (e) => !allowed.some((a) => a instanceof RegExp && a.test(e)),
        );
        expect(errors, 'errors in the browser console').to.deep.equal([]);
      });
    },
  };
}
