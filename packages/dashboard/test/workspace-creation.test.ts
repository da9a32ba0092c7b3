import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { workspaceToCreate, type WorkspaceRequest } from '../src/workspaces/creation.js';

const NOW = new Date('2026-11-23T12:00:00Z');
const ADA = { username: 'ada', anonymous: false };
const VISITOR = { username: 'anonymous', anonymous: true };

const base: WorkspaceRequest = { name: 'made', displayName: 'Made here' };

describe('the Workspace made for a creation request', () => {
  it('names the namespace after the workspace, created, unless told otherwise', () => {
    const cases: Array<[WorkspaceRequest['namespace'], { name: string; create: boolean }]> = [
      [undefined, { name: 'made', create: true }],
      [{}, { name: 'made', create: true }],
      [{ name: 'team-ns' }, { name: 'team-ns', create: true }],
      [{ create: false }, { name: 'made', create: false }],
      [
        { name: 'shared', create: false },
        { name: 'shared', create: false },
      ],
    ];
    for (const [namespace, expected] of cases) {
      const request = namespace === undefined ? base : { ...base, namespace };
      const made = workspaceToCreate(request, ADA, NOW);
      assert.deepEqual(made.spec.namespace, expected, JSON.stringify(namespace));
    }
  });

  it('makes the creator the owner unless an owner is named', () => {
    const cases: Array<[string, Partial<WorkspaceRequest>, Array<{ user: string; role: string }>]> =
      [
        ['nothing named', {}, [{ user: 'ada', role: 'owner' }]],
        [
          'an editor group only',
          { roleBindings: [{ groups: ['devs'], role: 'editor' }] },
          [{ user: 'ada', role: 'owner' }],
        ],
        [
          'a viewer grant only',
          { directGrants: [{ user: 'bob', role: 'viewer' }] },
          [
            { user: 'bob', role: 'viewer' },
            { user: 'ada', role: 'owner' },
          ],
        ],
        [
          'an expired owner grant',
          { directGrants: [{ user: 'bob', role: 'owner', expires: '2020-01-01T00:00:00Z' }] },
          [
            { user: 'bob', role: 'owner', expires: '2020-01-01T00:00:00Z' } as never,
            { user: 'ada', role: 'owner' },
          ],
        ],
        ['an owner group', { roleBindings: [{ groups: ['ops'], role: 'owner' }] }, []],
        [
          'an owner grant',
          { directGrants: [{ user: 'bob', role: 'owner' }] },
          [{ user: 'bob', role: 'owner' }],
        ],
      ];
    for (const [what, access, grants] of cases) {
      const made = workspaceToCreate({ ...base, ...access }, ADA, NOW);
      assert.deepEqual(made.spec.directGrants ?? [], grants, what);
    }
  });

  it('keeps the other spec fields as given', () => {
    const made = workspaceToCreate(
      {
        ...base,
        description: 'Where it happens',
        environment: 'staging',
        quotas: { agents: { maxAgentRuntimes: 3 } },
        networkPolicy: { isolate: true },
        anonymousAccess: { enabled: true },
      },
      ADA,
      NOW,
    );
    assert.deepEqual(made, {
      apiVersion: 'paddock.dev/v1alpha1',
      kind: 'Workspace',
      metadata: { name: 'made' },
      spec: {
        displayName: 'Made here',
        description: 'Where it happens',
        environment: 'staging',
        quotas: { agents: { maxAgentRuntimes: 3 } },
        networkPolicy: { isolate: true },
        namespace: { name: 'made', create: true },
        anonymousAccess: { enabled: true, role: 'viewer' },
        directGrants: [{ user: 'ada', role: 'owner' }],
      },
    });
  });

  it('refuses, naming the field, what the schema alone lets through', () => {
    const cases: Array<
      [string, WorkspaceRequest, Parameters<typeof workspaceToCreate>[1], RegExp]
    > = [
      ['a blank display name', { ...base, displayName: '  ' }, ADA, /^displayName /],
      [
        'a binding naming nobody',
        { ...base, roleBindings: [{ role: 'editor' }] },
        ADA,
        /^roleBindings\[0\] names no group/,
      ],
      [
        'a grant with an unreadable expiry',
        { ...base, directGrants: [{ user: 'bob', role: 'viewer', expires: 'soon' }] },
        ADA,
        /^directGrants\[0\]\.expires /,
      ],
      ['no owner, by an anonymous creator', base, VISITOR, /must name an owner/],
    ];
    for (const [what, request, creator, message] of cases) {
      assert.throws(() => workspaceToCreate(request, creator, NOW), { message }, what);
    }
    const owned = { ...base, roleBindings: [{ groups: ['ops'], role: 'owner' as const }] };
    assert.equal(workspaceToCreate(owned, VISITOR, NOW).spec.directGrants, undefined);
  });
});
