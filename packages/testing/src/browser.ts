import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_PATH } from './prerequisites.js';

/** Where browser tests leave their screenshots: artifacts of the run, never committed. */
export const SCREENSHOT_DIR = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'test-artifacts',
  'screenshots',
);

/**
 * Debian's Chromium (a system prerequisite; nothing is downloaded), headless. As root, Chromium's
 * own sandbox cannot start, so it is turned off there.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
}

/** Where the documentation's pictures of the web interface live. */
export const DOCS_IMAGES_DIR = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'docs',
  'dashboard',
  'images',
);

/**
 * Saves a full-page screenshot of the page as test-artifacts/screenshots/<name>.png. A picture the
 * documentation shows passes `docs: true`: with PADDOCK_DOCS_IMAGES=1 in the environment, the run
 * also writes it to docs/dashboard/images, which is how those pictures are made and refreshed.
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { docs?: boolean } = {},
): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  if (options.docs === true && process.env.PADDOCK_DOCS_IMAGES === '1') {
    await copyFile(path, join(DOCS_IMAGES_DIR, `${name}.png`));
  }
  return path;
}

/**
 * Collects what a page reports as broken: console errors (a Content-Security-Policy violation is
 * one) and uncaught exceptions. Tests assert it stays empty.
 */
export function pageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`exception: ${error.message}`));
  return problems;
}
