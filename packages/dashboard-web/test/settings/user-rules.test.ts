import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  EMPTY_NEW_USER,
  FROM_GROUPS,
  PAGE_SIZE,
  newUserBody,
  newUserProblems,
  isChange,
  noUsersText,
  offsetOf,
  pageParams,
  pagerOf,
  parseGroups,
  patchOf,
  roleDraftOf,
  roleNoun,
  userEditable,
  userMessages,
  userRowKey,
  userStatus,
  usersEditable,
  type PagerState,
  type UserFacts,
  type UserPatch,
} from '../../src/pages/settings/user-rules.js';
import type { AuthConfig } from '../../src/types.js';

/** An error as the API wrapper throws it: a message and the dashboard's error code. */
const apiError = (code: string, message: string) => Object.assign(new Error(message), { code });

const user = (change: Partial<UserFacts> = {}): UserFacts => ({
  id: 'u1',
  role: 'editor',
  roleOverride: null,
  groups: ['devs', 'ops'],
  provider: 'builtin',
  disabled: false,
  emailVerified: true,
  ...change,
});

describe('parseGroups', () => {
  const cases: [string, string[]][] = [
    ['', []],
    ['a', ['a']],
    ['a, b ,, c', ['a', 'b', 'c']],
    ['a, b, a', ['a', 'b']],
    [' , ', []],
  ];
  for (const [text, want] of cases) {
    it(`reads “${text}”`, () => assert.deepEqual(parseGroups(text), want));
  }
});

describe('roleNoun', () => {
  it('writes a role in running text, a viewer when there is none', () => {
    assert.equal(roleNoun('admin'), 'admin');
    assert.equal(roleNoun('editor'), 'editor');
    assert.equal(roleNoun(undefined), 'viewer');
  });
});

describe('who can be edited', () => {
  const cases: [AuthConfig['mode'], UserFacts['provider'], boolean, boolean][] = [
    ['builtin', 'builtin', true, true],
    ['builtin', 'oauth', true, false],
    ['oauth', 'oauth', false, false],
    ['proxy', 'proxy', false, false],
    ['anonymous', 'builtin', false, false],
  ];
  for (const [mode, provider, list, row] of cases) {
    it(`a ${provider} user on a ${mode} dashboard: list ${list}, row ${row}`, () => {
      assert.equal(usersEditable(mode), list);
      assert.equal(userEditable(mode, { provider }), row);
    });
  }
});

describe('patchOf', () => {
  const cases: [string, UserFacts, string, string, UserPatch][] = [
    ['nothing, when nothing changed', user(), FROM_GROUPS, 'devs, ops', {}],
    ['nothing, for the same groups written otherwise', user(), FROM_GROUPS, ' devs,ops, ,devs', {}],
    ['a role chosen', user(), 'admin', 'devs, ops', { role: 'admin' }],
    [
      'the role given back to the groups',
      user({ roleOverride: 'viewer' }),
      FROM_GROUPS,
      'devs, ops',
      { role: null },
    ],
    ['nothing, for the same override', user({ roleOverride: 'viewer' }), 'viewer', 'devs, ops', {}],
    ['groups in a new order', user(), FROM_GROUPS, 'ops, devs', { groups: ['ops', 'devs'] }],
    ['no groups', user(), FROM_GROUPS, '', { groups: [] }],
    ['both', user(), 'viewer', 'devs', { role: 'viewer', groups: ['devs'] }],
  ];
  for (const [name, target, role, groups, want] of cases) {
    it(`sends ${name}`, () => {
      const change = patchOf(target, role, groups);
      assert.deepEqual(change, want);
      assert.equal(isChange(change), Object.keys(want).length > 0);
    });
  }
  it('starts a row from the override, or from groups', () => {
    assert.equal(roleDraftOf(user({ roleOverride: 'admin' })), 'admin');
    assert.equal(roleDraftOf(user()), FROM_GROUPS);
    assert.deepEqual(patchOf(user(), roleDraftOf(user()), 'devs, ops'), {});
  });
});

describe('userStatus', () => {
  const cases: [string, Partial<UserFacts>, string, string][] = [
    ['an active user', {}, 'Active', 'ok'],
    ['a disabled user', { disabled: true, emailVerified: false }, 'Disabled', 'bad'],
    ['an unconfirmed account', { emailVerified: false }, 'Email not confirmed', 'warn'],
    [
      'a single sign-on user without a confirmed e-mail',
      { provider: 'oauth', emailVerified: false },
      'Active',
      'ok',
    ],
  ];
  for (const [name, change, label, tone] of cases) {
    it(`shows ${name}`, () => assert.deepEqual(userStatus(user(change)), { label, tone }));
  }
});

describe('userRowKey', () => {
  it('changes with what the row drafts from', () => {
    const keys = [
      user(),
      user({ roleOverride: 'admin' }),
      user({ role: 'viewer' }),
      user({ groups: ['devs'] }),
      user({ disabled: true }),
    ].map(userRowKey);
    assert.equal(new Set(keys).size, keys.length);
    assert.equal(keys[0], 'u1:null:editor:devs,ops:false');
  });
});

describe('paging', () => {
  const offsets: [string | null, number][] = [
    [null, 0],
    ['0', 0],
    ['50', 50],
    ['-5', 0],
    ['x', 0],
    ['12abc', 12],
  ];
  for (const [param, want] of offsets) {
    it(`reads the offset ${JSON.stringify(param)} as ${want}`, () =>
      assert.equal(offsetOf(param), want));
  }
  it('leaves the offset out of the first page’s address', () => {
    assert.deepEqual(pageParams(0), {});
    assert.deepEqual(pageParams(50), { offset: '50' });
  });
  const pagers: [string, number, number, number, PagerState][] = [
    ['one page', 0, 3, 3, { from: 1, to: 3, total: 3, previous: null, next: null }],
    [
      'the first of several',
      0,
      PAGE_SIZE,
      120,
      { from: 1, to: 50, total: 120, previous: null, next: 50 },
    ],
    [
      'a middle page',
      50,
      PAGE_SIZE,
      120,
      { from: 51, to: 100, total: 120, previous: 0, next: 100 },
    ],
    ['the last page', 100, 20, 120, { from: 101, to: 120, total: 120, previous: 50, next: null }],
    [
      'an offset between pages',
      30,
      PAGE_SIZE,
      120,
      { from: 31, to: 80, total: 120, previous: 0, next: 80 },
    ],
  ];
  for (const [name, offset, shown, total, want] of pagers) {
    it(`pages ${name}`, () =>
      assert.deepEqual(pagerOf(offset, { offset, limit: PAGE_SIZE, total }, shown), want));
  }
  it('says why a page is empty', () => {
    assert.equal(noUsersText(0), 'Nobody has signed in yet.');
    assert.equal(noUsersText(50), 'This page is past the last user.');
  });
});

describe('userMessages', () => {
  it('names the user, and why a change failed', () => {
    assert.equal(userMessages.saved('dave'), 'Saved the changes to dave.');
    assert.equal(userMessages.enabled('dave'), 'dave is enabled.');
    assert.equal(userMessages.disabled('dave'), 'dave is disabled.');
    assert.equal(
      userMessages.notChanged('dave', apiError('invalid_request', 'you cannot demote yourself')),
      'dave was not changed. You cannot demote yourself.',
    );
    assert.equal(
      userMessages.notChanged('dave', 42),
      'dave was not changed. Something went wrong.',
    );
  });
});

describe('the New user form', () => {
  it('sends what was typed, trimmed, leaving out blanks and a role from the groups', () => {
    const cases: Array<[Partial<typeof EMPTY_NEW_USER>, ReturnType<typeof newUserBody>]> = [
      [
        { username: ' ada ', email: 'ada@example.com ' },
        { username: 'ada', email: 'ada@example.com' },
      ],
      [
        {
          username: 'ada',
          email: 'ada@example.com',
          displayName: ' Ada L. ',
          role: 'editor',
          groups: 'devs, ops,, devs',
        },
        {
          username: 'ada',
          email: 'ada@example.com',
          displayName: 'Ada L.',
          role: 'editor',
          groups: ['devs', 'ops'],
        },
      ],
      [
        { username: 'ada', email: 'ada@example.com', displayName: '  ', role: FROM_GROUPS },
        { username: 'ada', email: 'ada@example.com' },
      ],
    ];
    for (const [draft, body] of cases) {
      assert.deepEqual(newUserBody({ ...EMPTY_NEW_USER, ...draft }), body);
    }
  });

  it('names a missing username or an address that is none before sending', () => {
    assert.deepEqual(newUserProblems({ username: 'ada', email: 'ada@example.com' }), {});
    assert.deepEqual(Object.keys(newUserProblems({ username: '', email: 'nope' })).sort(), [
      'email',
      'username',
    ]);
  });

  it('says who got which mail', () => {
    assert.equal(userMessages.created('ada', null), 'Created ada.');
    assert.match(
      userMessages.created('ada', 'ada@example.com'),
      /link to choose their password went to ada@example.com/,
    );
    assert.equal(
      userMessages.resetNotSent('ada', apiError('conflict', 'no mail can be sent')),
      'No reset mail went to ada. No mail can be sent.',
    );
  });
});
