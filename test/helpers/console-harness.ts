/**
 * What every console test needs, registered as mocha hooks in the describe that calls it: one
 * Chromium for the file, and per test a fresh config folder, the built netcfg on a loopback port
 * and a browser context, all stopped after it. A test written with `test` fails on any console
 * error in its page, but for those it allows (an HTTP status it provoked on purpose).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openPage, unexpectedErrors, type ConsolePage } from './browser.js';
import { startChild, type ChildServer } from './child-server.js';
import { makeConfigDir, removeDir } from './fixtures.js';
import { initRepo } from './git-repo.js';

export interface ConsoleHarness {
  /** The built netcfg over a new folder holding `files` (a git repository with `repo`); its URL. */
  start(files: Record<string, string>, env?: Record<string, string>, options?: { repo?: boolean }): Promise<string>;
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
  });

  return {
    async start(files, more = {}, options = {}) {
      root = makeConfigDir(files);
      if (options.repo) initRepo(root);
      env = { CONFIG_DIR: root, ...more };
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
        const errors = unexpectedErrors(tab?.errors ?? [], statuses).filter((e) => !allowed.some((a) => a instanceof RegExp && a.test(e)));
        expect(errors, 'errors in the browser console').to.deep.equal([]);
      });
    },
  };
}
