import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  anonymousMayChange,
  changeOf,
  grantState,
  newBindingRow,
  newGrantRow,
  requestOf,
  rowsOf,
  splitList,
  toLocalInput,
  toRfc3339,
  type AnonymousRow,
  type BindingRow,
  type GrantRow,
} from '../../src/pages/workspaces/member-rules.js';
import type { Access } from '../../src/pages/workspaces/types.js';

// The form speaks the browser's time zone: one half an hour off UTC, without summer time, shows
// that conversions happen both ways.
process.env.TZ = 'Asia/Kolkata';

const counter = () => {
  let n = 0;
  return () => ++n;
};

const binding = (change: Partial<BindingRow>): BindingRow => ({ ...newBindingRow(1), ...change });
const grant = (change: Partial<GrantRow>): GrantRow => ({ ...newGrantRow(1), ...change });
const off: AnonymousRow = { enabled: false, role: 'viewer' };

describe('toLocalInput', () => {
  const cases: [string, string | null | undefined, string][] = [
    ['nothing', undefined, ''],
    ['null', null, ''],
    ['an empty string', '', ''],
    ['an unreadable time', 'soon', ''],
    ['UTC, in the local zone', '2026-03-01T10:00:00Z', '2026-03-01T15:30'],
    ['across midnight', '2026-12-31T20:45:00Z', '2027-01-01T02:15'],
    ['seconds, dropped', '2026-03-01T10:00:59Z', '2026-03-01T15:30'],
  ];
  for (const [name, value, want] of cases) {
    it(`reads ${name}`, () => assert.equal(toLocalInput(value), want));
  }
});

describe('toRfc3339', () => {
  it('writes a local time in UTC, without milliseconds', () => {
    assert.equal(toRfc3339('2026-03-01T15:30'), '2026-03-01T10:00:00Z');
  });
  it('round-trips with toLocalInput', () => {
    assert.equal(toLocalInput(toRfc3339('2027-01-01T02:15')), '2027-01-01T02:15');
  });
  it('refuses what is not a date and time', () => {
    assert.throws(() => toRfc3339('tomorrow'), { message: '“tomorrow” is not a date and time.' });
  });
});

describe('splitList', () => {
  const cases: [string, string[]][] = [
    ['', []],
    [' , ,', []],
    ['a', ['a']],
    ['a, b ,, c ', ['a', 'b', 'c']],
    ['a,a', ['a', 'a']],
  ];
  for (const [text, want] of cases) {
    it(`splits “${text}”`, () => assert.deepEqual(splitList(text), want));
  }
});

describe('rowsOf', () => {
  const access: Access = {
    resourceVersion: '7',
    roleBindings: [
      { groups: ['devs', 'ops'], role: 'editor' },
      { serviceAccounts: [{ namespace: 'ci', name: 'bot' }], role: 'owner' },
    ],
    directGrants: [
      { user: 'olga', role: 'owner', expires: '2026-03-01T10:00:00Z', active: true },
      { user: 'rita', role: 'viewer', active: false },
    ],
    anonymousAccess: { enabled: true },
  };
  it('writes the access as form rows, each with its own key', () => {
    assert.deepEqual(rowsOf(access, counter()), {
      bindings: [
        { key: 1, groups: 'devs, ops', serviceAccounts: '', role: 'editor' },
        { key: 2, groups: '', serviceAccounts: 'ci/bot', role: 'owner' },
      ],
      grants: [
        {
          key: 3,
          user: 'olga',
          role: 'owner',
          expires: '2026-03-01T15:30',
          original: '2026-03-01T10:00:00Z',
          active: true,
        },
        { key: 4, user: 'rita', role: 'viewer', expires: '', original: null, active: false },
      ],
      // Anonymous access without a role is a viewer's.
      anonymous: { enabled: true, role: 'viewer' },
    });
  });
  it('gives back the access unchanged when nothing was edited', () => {
    const rows = rowsOf(access, counter());
    assert.deepEqual(changeOf(rows.bindings, rows.grants, rows.anonymous), {
      roleBindings: access.roleBindings,
      directGrants: [
        { user: 'olga', role: 'owner', expires: '2026-03-01T10:00:00Z' },
        { user: 'rita', role: 'viewer' },
      ],
      anonymousAccess: { enabled: true, role: 'viewer' },
    });
  });
});

describe('newBindingRow and newGrantRow', () => {
  it('start empty, as viewers, never expiring and new', () => {
    assert.deepEqual(newBindingRow(5), { key: 5, groups: '', serviceAccounts: '', role: 'viewer' });
    assert.deepEqual(newGrantRow(6), {
      key: 6,
      user: '',
      role: 'viewer',
      expires: '',
      original: null,
      active: undefined,
    });
  });
});

describe('changeOf', () => {
  const ok: { name: string; bindings: BindingRow[]; grants: GrantRow[]; want: unknown }[] = [
    {
      name: 'groups and service accounts, trimmed',
      bindings: [binding({ groups: ' devs ,', serviceAccounts: 'ci/bot, ops/deployer' })],
      grants: [],
      want: {
        roleBindings: [
          {
            groups: ['devs'],
            serviceAccounts: [
              { namespace: 'ci', name: 'bot' },
              { namespace: 'ops', name: 'deployer' },
            ],
            role: 'viewer',
          },
        ],
        directGrants: [],
        anonymousAccess: { enabled: false },
      },
    },
    {
      name: 'a grant with a trimmed user and a new expiry in UTC',
      bindings: [],
      grants: [grant({ user: ' olga ', role: 'owner', expires: '2026-03-01T15:30' })],
      want: {
        roleBindings: [],
        directGrants: [{ user: 'olga', role: 'owner', expires: '2026-03-01T10:00:00Z' }],
        anonymousAccess: { enabled: false },
      },
    },
    {
      name: 'an untouched expiry exactly as read (seconds kept)',
      bindings: [],
      grants: [grant({ user: 'a', expires: '2026-03-01T15:30', original: '2026-03-01T10:00:42Z' })],
      want: {
        roleBindings: [],
        directGrants: [{ user: 'a', role: 'viewer', expires: '2026-03-01T10:00:42Z' }],
        anonymousAccess: { enabled: false },
      },
    },
    {
      name: 'a changed expiry as typed',
      bindings: [],
      grants: [grant({ user: 'a', expires: '2026-03-02T15:30', original: '2026-03-01T10:00:42Z' })],
      want: {
        roleBindings: [],
        directGrants: [{ user: 'a', role: 'viewer', expires: '2026-03-02T10:00:00Z' }],
        anonymousAccess: { enabled: false },
      },
    },
    {
      name: 'a cleared expiry as never',
      bindings: [],
      grants: [grant({ user: 'a', expires: '', original: '2026-03-01T10:00:00Z' })],
      want: {
        roleBindings: [],
        directGrants: [{ user: 'a', role: 'viewer' }],
        anonymousAccess: { enabled: false },
      },
    },
  ];
  for (const { name, bindings, grants, want } of ok) {
    it(`sends ${name}`, () => assert.deepEqual(changeOf(bindings, grants, off), want));
  }

  it('sends anonymous access with its role only when it is on', () => {
    assert.deepEqual(changeOf([], [], { enabled: true, role: 'editor' }).anonymousAccess, {
      enabled: true,
      role: 'editor',
    });
    assert.deepEqual(changeOf([], [], { enabled: false, role: 'editor' }).anonymousAccess, {
      enabled: false,
    });
  });

  const refused: [string, BindingRow[], GrantRow[], string][] = [
    [
      'a binding naming nobody',
      [binding({ groups: 'devs' }), binding({ groups: ' , ' })],
      [],
      'Binding 2 names no group or service account: add one, or remove it.',
    ],
    [
      'a service account without a namespace',
      [binding({ serviceAccounts: 'bot' })],
      [],
      'Binding 1: write each service account as namespace/name (not “bot”).',
    ],
    [
      'a service account with an empty name',
      [binding({ serviceAccounts: 'ci/' })],
      [],
      'Binding 1: write each service account as namespace/name (not “ci/”).',
    ],
    [
      'a service account with too many parts',
      [binding({ serviceAccounts: 'a/b/c' })],
      [],
      'Binding 1: write each service account as namespace/name (not “a/b/c”).',
    ],
    [
      'a grant naming no user',
      [],
      [grant({ user: 'a' }), grant({ user: '  ' })],
      'Grant 2 names no user: add a username or e-mail.',
    ],
  ];
  for (const [name, bindings, grants, message] of refused) {
    it(`refuses ${name}`, () => assert.throws(() => changeOf(bindings, grants, off), { message }));
  }
});

describe('requestOf', () => {
  const access = (resourceVersion: string | null): Access => ({
    resourceVersion,
    roleBindings: [],
    directGrants: [],
    anonymousAccess: { enabled: false },
  });
  const change = { roleBindings: [], directGrants: [], anonymousAccess: { enabled: false } };
  it('sends the version the change was made on', () => {
    assert.deepEqual(requestOf(change, access('12')), { ...change, resourceVersion: '12' });
  });
  it('sends no version when the access has none', () => {
    assert.deepEqual(requestOf(change, access(null)), change);
  });
});

describe('grantState', () => {
  const cases: [boolean | undefined, string][] = [
    [undefined, 'new'],
    [true, 'active'],
    [false, 'expired'],
  ];
  for (const [active, want] of cases) {
    it(`says ${want}`, () => assert.equal(grantState({ active }), want));
  }
});

describe('anonymousMayChange', () => {
  const cases: [AnonymousRow, boolean][] = [
    [{ enabled: false, role: 'owner' }, false],
    [{ enabled: true, role: 'viewer' }, false],
    [{ enabled: true, role: 'editor' }, true],
    [{ enabled: true, role: 'owner' }, true],
  ];
  for (const [anonymous, want] of cases) {
    it(`${want ? 'warns' : 'does not warn'} when ${JSON.stringify(anonymous)}`, () =>
      assert.equal(anonymousMayChange(anonymous), want));
  }
});
