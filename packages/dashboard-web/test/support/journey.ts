import assert from 'node:assert/strict';
import type { Browser, Locator, Page } from 'playwright-core';
import { pageProblems, type ReceivedMail } from '@paddock/testing';

/**
 * What went wrong on a page during a journey: pageProblems() (console errors, exceptions, a
 * Content-Security-Policy violation) less the browser's "Failed to load resource" line for each
 * error answer of the API that the journey provokes on purpose (a 401 while signed out, a wrong
 * password), which the page handles. A failed load of anything else (a script, a style, an image)
 * or one more failed load than the API answered still counts.
 */
export function watchPage(page: Page): () => string[] {
  const problems = pageProblems(page);
  const apiErrors: number[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/api/') && response.status() >= 400) {
      apiErrors.push(response.status());
    }
  });
  return () => {
    const left = [...apiErrors];
    return problems.filter((problem) => {
      const status = /Failed to load resource: the server responded with a status of (\d+)/.exec(
        problem,
      )?.[1];
      const at = status === undefined ? -1 : left.indexOf(Number(status));
      if (at === -1) return true;
      left.splice(at, 1);
      return false;
    });
  };
}

/** A person as the proxy in front of the dashboard names them (proxy mode). */
export interface ProxyPerson {
  user: string;
  groups: string;
}

/**
 * The people of the agent journeys, as the proxy names them: a workspace binds the group `devs` as
 * editors and `readers` as viewers.
 */
export const PEOPLE = {
  editor: { user: 'eddie', groups: 'devs' },
  viewer: { user: 'vic', groups: 'readers' },
} as const satisfies Record<string, ProxyPerson>;
export type Person = keyof typeof PEOPLE;

/**
 * Runs `steps` on a page of `person` at `path` of the dashboard at `base`: a browser context of
 * its own that sends the proxy's headers, as the proxy would. Then checks that nothing went wrong
 * on the page (watchPage); the context is closed either way.
 */
export async function onProxyPage(
  browser: Browser,
  at: { base: string; person: ProxyPerson; path: string; timeoutMs: number },
  steps: (page: Page) => Promise<void>,
): Promise<void> {
  const context = await browser.newContext({
    baseURL: at.base,
    extraHTTPHeaders: {
      'X-Forwarded-User': at.person.user,
      'X-Forwarded-Groups': at.person.groups,
    },
    viewport: { width: 1280, height: 900 },
  });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(at.timeoutMs);
    const problems = watchPage(page);
    await page.goto(at.path);
    await steps(page);
    assert.deepEqual(problems(), []);
  } finally {
    await context.close();
  }
}

/** The link to `/<path>?token=…` in a mail (quoted-printable soft breaks undone). */
export function linkInMail(mail: ReceivedMail, path: string): string {
  const text = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = new RegExp(`https?://[^\\s"<>]+/${path}\\?token=[A-Za-z0-9_-]+`).exec(text);
  if (!match) throw new Error(`no /${path} link in the mail:\n${text}`);
  return match[0];
}

/** The visible text of an element, once it is there, with runs of white space made one. */
export async function textOf(locator: Locator): Promise<string> {
  await locator.waitFor();
  return (await locator.innerText()).replace(/\s+/g, ' ').trim();
}

/** Fills the built-in sign-in form and submits it. */
export async function signInWithPassword(
  page: Page,
  username: string,
  password: string,
): Promise<void> {
  await page.getByRole('heading', { name: 'Sign in to Paddock' }).waitFor();
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** The path, query and fragment of the page's address. */
export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Waits until the page's path (with its query) is `expected`. */
export async function waitForPath(page: Page, expected: string): Promise<void> {
  await page.waitForURL((url) => `${url.pathname}${url.search}` === expected);
}

/** The page fits the width of the window: nothing but a table's own scroll box is wider. */
export async function assertFitsWidth(page: Page): Promise<void> {
  // Page-side code as text: these tests are compiled without the DOM's types.
  const { scroll, width } = await page.evaluate<{ scroll: number; width: number }>(
    '({ scroll: document.documentElement.scrollWidth, width: window.innerWidth })',
  );
  assert.ok(scroll <= width, `the page is ${scroll}px wide in a ${width}px window`);
}

/** The element that has the focus: its tag, role and text, to check where focus went. */
export async function focused(page: Page): Promise<string> {
  return page.evaluate<string>(`(() => {
    const el = document.activeElement;
    if (el === null) return '';
    const role = el.getAttribute('role');
    return el.tagName.toLowerCase() + (role ? '[role=' + role + ']' : '') + ': ' +
      (el.textContent ?? '').replace(/\\s+/g, ' ').trim();
  })()`);
}

/** The name attribute of the focused element. */
export async function focusedName(page: Page): Promise<string | null> {
  return page.evaluate<string | null>("document.activeElement?.getAttribute('name') ?? null");
}
