import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Workspace, WorkspaceSpec } from '@paddock/kube';
import { workspaceRoleOf, type Subject } from '../src/workspaces/access.js';
import { hasOwner, parseAccessChange } from '../src/workspaces/members.js';
import { mayAct, permissionsIn } from '../src/workspaces/views.js';

const NOW = new Date('2026-11-23T12:00:00Z');

function workspace(spec: Omit<WorkspaceSpec, 'namespace' | 'displayName'>): Workspace {
  return {
    apiVersion: 'paddock.dev/v1alpha1',
    kind: 'Workspace',
    metadata: { name: 'w' },
    spec: { displayName: 'W', namespace: { name: 'ns-w' }, ...spec },
  };
}

function user(groups: string[], username = 'alice', email?: string): Subject {
  return { anonymous: false, username, email, groups };
}

const ANONYMOUS: Subject = { anonymous: true, username: 'anonymous', groups: [] };

describe('the workspace role of a user', () => {
  it('takes the highest role among the bindings matching any of the groups', () => {
    const w = workspace({
      roleBindings: [
        { groups: ['readers'], role: 'viewer' },
        { groups: ['devs', 'x'], role: 'editor' },
        { groups: ['leads'], role: 'owner' },
      ],
    });
    assert.equal(workspaceRoleOf(w, user(['readers']), NOW), 'viewer');
    assert.equal(workspaceRoleOf(w, user(['readers', 'devs']), NOW), 'editor');
    assert.equal(workspaceRoleOf(w, user(['devs', 'readers', 'leads']), NOW), 'owner');
    assert.equal(workspaceRoleOf(w, user(['leads', 'readers']), NOW), 'owner');
    assert.equal(workspaceRoleOf(w, user(['others']), NOW), undefined);
    assert.equal(workspaceRoleOf(w, user([]), NOW), undefined);
  });

  it('ignores bindings of ServiceAccounts only, and group names differing in case', () => {
    const w = workspace({
      roleBindings: [
        { serviceAccounts: [{ name: 'ci', namespace: 'ci' }], role: 'owner' },
        { groups: ['Devs'], role: 'editor' },
      ],
    });
    assert.equal(workspaceRoleOf(w, user(['devs', 'ci']), NOW), undefined);
    assert.equal(workspaceRoleOf(w, user(['Devs']), NOW), 'editor');
  });

  it('takes the highest direct grant, not the first, by username or email in any case', () => {
    const w = workspace({
      directGrants: [
        { user: 'alice', role: 'viewer' },
        { user: 'ALICE@Example.com', role: 'owner' },
        { user: 'bob', role: 'editor' },
      ],
    });
    assert.equal(workspaceRoleOf(w, user([], 'alice', 'alice@example.com'), NOW), 'owner');
    assert.equal(workspaceRoleOf(w, user([], 'Alice'), NOW), 'viewer');
    assert.equal(workspaceRoleOf(w, user([], 'BOB'), NOW), 'editor');
    assert.equal(workspaceRoleOf(w, user([], 'carol', 'bob@example.com'), NOW), undefined);
  });

  it('ignores expired grants, and treats an unreadable expiry as expired', () => {
    const grant = (expires: string) =>
      workspace({ directGrants: [{ user: 'alice', role: 'owner', expires }] });
    assert.equal(workspaceRoleOf(grant('2026-11-23T12:00:01Z'), user([]), NOW), 'owner');
    assert.equal(workspaceRoleOf(grant('2026-11-23T13:00:00+01:00'), user([]), NOW), undefined);
    assert.equal(workspaceRoleOf(grant('2026-11-23T12:00:00Z'), user([]), NOW), undefined);
    assert.equal(workspaceRoleOf(grant('2026-11-23T11:59:59Z'), user([]), NOW), undefined);
    for (const unreadable of ['next week', '2030-02-30T00:00:00Z', '2030-01-01', '']) {
      assert.equal(workspaceRoleOf(grant(unreadable), user([]), NOW), undefined, unreadable);
    }
  });

  it('gives anonymous users only anonymousAccess, and everyone at least that', () => {
    const w = workspace({
      roleBindings: [{ groups: ['devs'], role: 'editor' }],
      directGrants: [{ user: 'anonymous', role: 'owner' }],
      anonymousAccess: { enabled: true, role: 'viewer' },
    });
    assert.equal(workspaceRoleOf(w, ANONYMOUS, NOW), 'viewer');
    assert.equal(workspaceRoleOf(w, user(['nobody'], 'carol'), NOW), 'viewer');
    assert.equal(workspaceRoleOf(w, user(['devs']), NOW), 'editor');
    const editors = workspace({ anonymousAccess: { enabled: true, role: 'editor' } });
    assert.equal(workspaceRoleOf(editors, user(['x']), NOW), 'editor');
    assert.equal(
      workspaceRoleOf(workspace({ anonymousAccess: { enabled: true } }), ANONYMOUS, NOW),
      'viewer',
    );
    const off = workspace({ anonymousAccess: { enabled: false, role: 'owner' } });
    assert.equal(workspaceRoleOf(off, ANONYMOUS, NOW), undefined);
    assert.equal(workspaceRoleOf(off, user([]), NOW), undefined);
    assert.equal(workspaceRoleOf(workspace({}), ANONYMOUS, NOW), undefined);
  });

  it('takes the maximum over groups, grants and anonymous access', () => {
    const w = workspace({
      roleBindings: [{ groups: ['devs'], role: 'viewer' }],
      directGrants: [
        { user: 'alice', role: 'editor', expires: '2030-01-01T00:00:00Z' },
        { user: 'alice', role: 'owner', expires: '2020-01-01T00:00:00Z' },
      ],
      anonymousAccess: { enabled: true, role: 'viewer' },
    });
    assert.equal(workspaceRoleOf(w, user(['devs']), NOW), 'editor');
  });
});

describe('the last owner', () => {
  it('counts owner bindings naming someone and unexpired owner grants', () => {
    assert.equal(hasOwner({ roleBindings: [{ groups: ['a'], role: 'owner' }] }, NOW), true);
    assert.equal(
      hasOwner(
        { roleBindings: [{ serviceAccounts: [{ name: 'a', namespace: 'b' }], role: 'owner' }] },
        NOW,
      ),
      true,
    );
    assert.equal(hasOwner({ roleBindings: [{ groups: [], role: 'owner' }] }, NOW), false);
    assert.equal(hasOwner({ roleBindings: [{ groups: ['a'], role: 'editor' }] }, NOW), false);
    assert.equal(hasOwner({ directGrants: [{ user: 'a', role: 'owner' }] }, NOW), true);
    assert.equal(
      hasOwner(
        { directGrants: [{ user: 'a', role: 'owner', expires: '2020-01-01T00:00:00Z' }] },
        NOW,
      ),
      false,
    );
    assert.equal(hasOwner({ anonymousAccess: { enabled: true, role: 'owner' } }, NOW), false);
    assert.equal(hasOwner({}, NOW), false);
  });
});

describe('an access change', () => {
  it('takes bindings, grants and anonymous access, trimmed, each optional', () => {
    assert.deepEqual(
      parseAccessChange({
        roleBindings: [{ groups: [' devs '], role: 'editor' }],
        directGrants: [{ user: ' bob ', role: 'viewer', expires: '2030-01-01T00:00:00Z' }],
        anonymousAccess: { enabled: true },
      }),
      {
        roleBindings: [{ groups: ['devs'], role: 'editor' }],
        directGrants: [{ user: 'bob', role: 'viewer', expires: '2030-01-01T00:00:00Z' }],
        anonymousAccess: { enabled: true, role: 'viewer' },
      },
    );
    assert.deepEqual(parseAccessChange({}), {});
  });

  it('refuses what is malformed, naming the field', () => {
    const refused: [unknown, RegExp][] = [
      [[], /JSON object/],
      [{ members: [] }, /unknown field "members"/],
      [{ roleBindings: {} }, /roleBindings must be an array/],
      [{ roleBindings: [{ groups: ['a'], role: 'admin' }] }, /roleBindings\[0\]\.role/],
      [{ roleBindings: [{ role: 'viewer' }] }, /names no group/],
      [{ roleBindings: [{ groups: [''], role: 'viewer' }] }, /non-empty strings/],
      [{ directGrants: [{ role: 'viewer' }] }, /directGrants\[0\]\.user/],
      [{ directGrants: [{ user: 'a', role: 'viewer', expires: 'tomorrow' }] }, /RFC 3339/],
      [{ anonymousAccess: { role: 'viewer' } }, /enabled/],
      [
        { roleBindings: Array.from({ length: 501 }, () => ({ groups: ['a'], role: 'viewer' })) },
        /at most 500/,
      ],
    ];
    for (const [body, message] of refused) {
      assert.throws(() => parseAccessChange(body), message, JSON.stringify(body).slice(0, 60));
    }
  });
});

describe('workspace actions', () => {
  it('need both the global permission and an editor or owner workspace role', () => {
    assert.equal(mayAct('editor', 'editor', 'scaleAgents'), true);
    assert.equal(mayAct('admin', 'owner', 'createAgents'), true);
    assert.equal(mayAct('viewer', 'owner', 'scaleAgents'), false);
    assert.equal(mayAct('admin', 'viewer', 'modifyPrompts'), false);
    assert.deepEqual(permissionsIn('editor', 'viewer'), {
      scaleAgents: false,
      createAgents: false,
      deleteAgents: false,
      modifyPrompts: false,
      modifyTools: false,
      viewFiles: true,
      useTerminal: false,
      useMcp: false,
      viewRuns: true,
      startRuns: false,
      manageMembers: false,
    });
    assert.equal(permissionsIn('viewer', 'owner').manageMembers, true);
    // Into an agent's workspace: viewers read, editors and owners also enter, if the dashboard
    // role allows it too.
    assert.equal(mayAct('viewer', 'viewer', 'viewFiles'), true);
    assert.equal(mayAct('editor', 'editor', 'useTerminal'), true);
    assert.equal(mayAct('editor', 'owner', 'useMcp'), true);
    assert.equal(mayAct('viewer', 'owner', 'useTerminal'), false);
    assert.equal(mayAct('admin', 'viewer', 'useMcp'), false);
    // The agent's runs: viewers follow them, editors and owners also start and cancel them.
    assert.equal(mayAct('viewer', 'viewer', 'viewRuns'), true);
    assert.equal(mayAct('editor', 'editor', 'startRuns'), true);
    assert.equal(mayAct('admin', 'owner', 'startRuns'), true);
    assert.equal(mayAct('admin', 'viewer', 'startRuns'), false);
    assert.equal(mayAct('viewer', 'owner', 'startRuns'), false);
  });
});
