/**
 * Headless Chromium for the console's end-to-end tests: Debian's chromium (installed by `make
 * test`, or CHROMIUM_PATH) driven by playwright-core, with the flags this closed network needs.
 * Every page's console errors and uncaught exceptions are collected, so a test can require none.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `No Chromium at ${CHROMIUM}: \`make test\` installs Debian's chromium package; elsewhere set CHROMIUM_PATH.`,
    );
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Without the background-networking flags Chromium keeps calling Google's hosts, which this network refuses.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

export interface ConsolePage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions seen so far. */
  errors: string[];
}

export async function openPage(
  browser: Browser,
  url: string,
  viewport = { width: 1280, height: 900 },
): Promise<ConsolePage> {
  const context = await browser.newContext({ viewport });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`page: ${err.message}`));
  await page.goto(url);
  return { page, context, errors };
}

/**
 * The errors a page showed, but for the browser's own log line about an HTTP error status the test
 * provoked on purpose (a 401 for a wrong key, a 412 for a conflict): anything else is a failure.
 */
export function unexpectedErrors(errors: string[], expectedStatuses: number[] = []): string[] {
  return errors.filter(
    (e) => !expectedStatuses.some((status) => e.includes(`the server responded with a status of ${status}`)),
  );
}

interface PageGlobals {
  document: { querySelector(selector: string): { value?: string } | null };
}

/**
 * Waits until the field `selector` holds `value` (the live property, which no attribute shows). A
 * function, not a string: the console's CSP forbids the eval a string would need.
 */
export async function waitForValue(page: Page, selector: string, value: string): Promise<void> {
  await page.waitForFunction(
    ([s, v]) => (globalThis as unknown as PageGlobals).document.querySelector(s)?.value === v,
    [selector, value] as const,
  );
}
