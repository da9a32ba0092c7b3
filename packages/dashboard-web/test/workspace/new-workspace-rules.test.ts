import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  creatorOwns,
  draftProblems,
  EMPTY_DRAFT,
  fieldOfRefusal,
  requestOf,
  type NewWorkspaceDraft,
} from '../../src/pages/workspaces/new-workspace-rules.js';

const draft = (change: Partial<NewWorkspaceDraft>): NewWorkspaceDraft => ({
  ...EMPTY_DRAFT,
  name: 'team',
  displayName: 'Team',
  ...change,
});

describe('the new-workspace form', () => {
  it('checks the names as the dashboard does (DNS-1123 labels)', () => {
    const cases: Array<[Partial<NewWorkspaceDraft>, string[]]> = [
      [{}, []],
      [{ name: 'a' }, []],
      [{ name: 'a-1-b' }, []],
      [{ name: '' }, ['name']],
      [{ name: 'Team' }, ['name']],
      [{ name: 'a.b' }, ['name']],
      [{ name: '-a' }, ['name']],
      [{ name: 'a-' }, ['name']],
      [{ name: 'a_b' }, ['name']],
      [{ name: 'a'.repeat(63) }, []],
      [{ name: 'a'.repeat(64) }, ['name']],
      [{ displayName: '  ' }, ['displayName']],
      [{ namespace: 'team-ns' }, []],
      [{ namespace: 'Team.NS' }, ['namespace']],
      [{ group: 'ops,devs' }, ['group']],
      [{ name: 'X', displayName: '', namespace: '_' }, ['name', 'displayName', 'namespace']],
    ];
    for (const [change, fields] of cases) {
      assert.deepEqual(Object.keys(draftProblems(draft(change))), fields, JSON.stringify(change));
    }
  });

  it('sends the namespace (the name when empty), and the group only when given', () => {
    assert.deepEqual(requestOf(draft({ description: '  ' })), {
      name: 'team',
      displayName: 'Team',
      environment: 'development',
      namespace: { name: 'team', create: true },
    });
    assert.deepEqual(
      requestOf(
        draft({
          name: ' team ',
          description: 'Ours',
          environment: 'production',
          namespace: 'shared',
          createNamespace: false,
          group: ' ops ',
          groupRole: 'viewer',
        }),
      ),
      {
        name: 'team',
        displayName: 'Team',
        description: 'Ours',
        environment: 'production',
        namespace: { name: 'shared', create: false },
        roleBindings: [{ groups: ['ops'], role: 'viewer' }],
      },
    );
  });

  it('says whether the creator will own it', () => {
    assert.equal(creatorOwns(draft({})), true);
    assert.equal(creatorOwns(draft({ group: 'ops', groupRole: 'editor' })), true);
    assert.equal(creatorOwns(draft({ group: 'ops', groupRole: 'owner' })), false);
    assert.equal(creatorOwns(draft({ group: ' ', groupRole: 'owner' })), true);
  });

  it('places the dashboard’s refusals next to their field', () => {
    const cases: Array<[string, string, string | undefined]> = [
      ['invalid_request', 'body.name must match ^[a-z0-9]…', 'name'],
      ['invalid_request', 'body.displayName must not be blank', 'displayName'],
      ['invalid_request', 'body.namespace.name must match …', 'namespace'],
      ['invalid_request', 'body.namespace has an unknown field "x"', 'namespace'],
      ['invalid_request', 'body.roleBindings[0] names no group or ServiceAccount', 'group'],
      ['invalid_request', 'body.environment must be one of …', undefined],
      ['invalid_request', 'the cluster refused', undefined],
      ['already_exists', 'workspace "team" already exists', 'name'],
      ['already_exists', 'namespace "team" is already the namespace of workspace "x"', 'namespace'],
      ['forbidden', 'body.name', undefined],
    ];
    for (const [code, message, field] of cases) {
      assert.equal(fieldOfRefusal(code, message), field, message);
    }
  });
});
