// Imports end in .js: the unit tests type-check this module as Node code, outside the bundler.
import { PAGE_PATHS } from './page-paths.js';
import { TABS } from './pages/workspaces/agent-tabs.js';

/**
 * The browser tab's title of every page, decided here alone from the address and the names the
 * page knows: most specific first, then the workspace, then the product, e.g.
 * "Files · sample-agent · Sample — Paddock". A page added to PAGE_PATHS without a title here is
 * named after the last word of its path.
 */

export const APP_NAME = 'Paddock';
/** Between the parts of what the page shows. */
export const PART_SEPARATOR = ' · ';
/** Before the product's name. */
export const APP_SEPARATOR = ' — ';

/** Names the address does not carry, given by the page once it knows them. */
export interface TitleNames {
  /** The workspace's display name (its object name from the address until known). */
  workspace?: string | undefined;
}

/** The pages outside a workspace, by path. */
const PAGES: Record<string, string> = {
  [PAGE_PATHS.workspaces]: 'Workspaces',
  [PAGE_PATHS.login]: 'Sign in',
  [PAGE_PATHS.signup]: 'Sign up',
  [PAGE_PATHS.forgotPassword]: 'Forgot password',
  [PAGE_PATHS.resetPassword]: 'Reset password',
  [PAGE_PATHS.verifyEmail]: 'Verify email',
  [PAGE_PATHS.apiKeys]: 'API keys',
  [PAGE_PATHS.users]: 'Users',
  [PAGE_PATHS.changePassword]: 'Change password',
  [PAGE_PATHS.newWorkspace]: 'New workspace',
};

/** A workspace's views, by their path segment after the workspace's name. */
const WORKSPACE_VIEWS: Record<string, string> = {
  '': 'Overview',
  agents: 'Agents',
  promptpacks: 'Prompt packs',
  toolregistries: 'Tool registries',
  members: 'Members',
};

export const NOT_FOUND_TITLE = 'Page not found';

/** The title of the page at `pathname` (and `search`, for an agent's tab). */
export function pageTitle(
  location: { pathname: string; search?: string },
  names: TitleNames = {},
): string {
  return withApp(pageParts(location, names));
}

function withApp(parts: readonly string[]): string {
  const shown = parts.filter((part) => part !== '');
  return shown.length === 0 ? APP_NAME : `${shown.join(PART_SEPARATOR)}${APP_SEPARATOR}${APP_NAME}`;
}

function pageParts(location: { pathname: string; search?: string }, names: TitleNames): string[] {
  const path = normalised(location.pathname);
  const known = PAGES[path];
  if (known !== undefined) return [known];
  const segments = path.split('/').slice(1).map(decoded);
  if (segments[0] === 'workspaces' && segments[1] !== undefined && segments[1] !== '') {
    const workspace = names.workspace ?? segments[1];
    const [view = '', agent, ...rest] = segments.slice(2);
    if (view === 'agents' && agent !== undefined && rest.length === 0) {
      const tab = new URLSearchParams(location.search ?? '').get('tab');
      const label = TABS.find((t) => t.key === tab)?.label ?? 'Overview';
      return [label, agent, workspace];
    }
    if (agent === undefined) return [WORKSPACE_VIEWS[view] ?? humanised(view), workspace];
    return [humanised(segments.at(-1) ?? ''), workspace];
  }
  if (!isPagePath(path)) return [NOT_FOUND_TITLE];
  return [humanised(segments.at(-1) ?? '')];
}

/** The path without a trailing slash (the root stays `/`). */
function normalised(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** `api-keys` → `Api keys`: a path word as a title. */
function humanised(word: string): string {
  const spaced = word.replace(/[-_]+/g, ' ').trim();
  return spaced === '' ? '' : spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** Whether the path is one of PAGE_PATHS' patterns (`:param` one segment, `*` the rest). */
function isPagePath(path: string): boolean {
  const segments = path.split('/');
  return Object.values(PAGE_PATHS).some((pattern) => {
    const parts = pattern.split('/');
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (part === '*') return true;
      const segment = segments[i];
      if (segment === undefined) return false;
      if (part.startsWith(':') ? segment === '' : part !== segment) return false;
    }
    return parts.length === segments.length;
  });
}
