import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pageTitle, type TitleNames } from '../src/page-title.js';

describe('pageTitle', () => {
  const cases: [string, string, TitleNames, string][] = [
    ['the workspace list', '/', {}, 'Workspaces — Paddock'],
    ['sign-in', '/login', {}, 'Sign in — Paddock'],
    ['sign-up', '/signup', {}, 'Sign up — Paddock'],
    ['forgotten password', '/forgot-password', {}, 'Forgot password — Paddock'],
    ['password reset, with its token', '/reset-password?token=abc', {}, 'Reset password — Paddock'],
    ['e-mail verification', '/verify-email', {}, 'Verify email — Paddock'],
    ['API keys', '/settings/api-keys', {}, 'API keys — Paddock'],
    ['users', '/admin/users', {}, 'Users — Paddock'],
    ['a new workspace', '/admin/workspaces/new', {}, 'New workspace — Paddock'],
    ['a trailing slash', '/admin/users/', {}, 'Users — Paddock'],
    [
      'a workspace before its name is known',
      '/workspaces/sample',
      {},
      'Overview · sample — Paddock',
    ],
    [
      'a workspace by its display name',
      '/workspaces/sample',
      { workspace: 'Sample' },
      'Overview · Sample — Paddock',
    ],
    [
      'its agents',
      '/workspaces/sample/agents',
      { workspace: 'Sample' },
      'Agents · Sample — Paddock',
    ],
    [
      'its prompt packs',
      '/workspaces/sample/promptpacks',
      { workspace: 'Sample' },
      'Prompt packs · Sample — Paddock',
    ],
    [
      'its tool registries',
      '/workspaces/sample/toolregistries',
      { workspace: 'Sample' },
      'Tool registries · Sample — Paddock',
    ],
    [
      'its members',
      '/workspaces/sample/members',
      { workspace: 'Sample' },
      'Members · Sample — Paddock',
    ],
    [
      'an agent',
      '/workspaces/sample/agents/sample-agent',
      { workspace: 'Sample' },
      'Overview · sample-agent · Sample — Paddock',
    ],
    [
      "an agent's files",
      '/workspaces/sample/agents/sample-agent?tab=files&pod=sample-agent-0',
      { workspace: 'Sample' },
      'Files · sample-agent · Sample — Paddock',
    ],
    [
      "an agent's terminal",
      '/workspaces/sample/agents/sample-agent?tab=terminal',
      { workspace: 'Sample' },
      'Terminal · sample-agent · Sample — Paddock',
    ],
    [
      'an unknown tab of an agent',
      '/workspaces/sample/agents/sample-agent?tab=nope',
      { workspace: 'Sample' },
      'Overview · sample-agent · Sample — Paddock',
    ],
    [
      'escaped names',
      '/workspaces/team%2Eone/agents/a%20b',
      {},
      'Overview · a b · team.one — Paddock',
    ],
    [
      'a workspace view no title names yet',
      '/workspaces/sample/secret-stores',
      { workspace: 'Sample' },
      'Secret stores · Sample — Paddock',
    ],
    ['a path that is no page', '/nowhere/at-all', {}, 'Page not found — Paddock'],
  ];
  for (const [what, address, names, expected] of cases) {
    it(what, () => {
      const url = new URL(address, 'http://dashboard.test');
      assert.equal(pageTitle({ pathname: url.pathname, search: url.search }, names), expected);
    });
  }

  it('names a page added to the page paths after the last word of its path', async () => {
    // PAGE_PATHS is the list of pages: a new one is titled before anyone writes its title.
    const { PAGE_PATHS } = await import('../src/page-paths.js');
    for (const pattern of Object.values(PAGE_PATHS)) {
      const path = pattern.replace(/:[^/]+/g, 'x').replace(/\*$/, '');
      assert.notEqual(pageTitle({ pathname: path }), 'Page not found — Paddock', pattern);
    }
  });
});
