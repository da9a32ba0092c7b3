import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../src/contracts.js';
import { ApiError } from '../src/api/api-error.js';
import {
  compareFields,
  difference,
  fromMembers,
  intersection,
  membersOf,
  pathText,
  union,
} from '../src/patch/field-set.js';
import {
  ANCIENT_CHANGES_MANAGER,
  MAX_UPDATE_MANAGERS,
  managerOf,
  recordUpdate,
} from '../src/patch/managed-fields.js';
import { ATOMIC_LISTS, builtinListStrategies } from '../src/patch/patch-meta.js';
import { serverSideApply } from '../src/patch/server-side-apply.js';
import { metaOf, type ManagedFieldsEntry } from '../src/objects/object-meta.js';

const POD_LISTS = builtinListStrategies('Pod');

describe('the field manager derived from a request', () => {
  const table: Array<[string | undefined, string, string]> = [
    ['kubectl-label', 'kubectl/v1.30.0 (linux/amd64) kubernetes/7c48c2b', 'kubectl-label'],
    [undefined, 'kubectl/v1.30.0 (linux/amd64) kubernetes/7c48c2b', 'kubectl'],
    [undefined, 'OpenAPI-Generator/29.0.0/python', 'OpenAPI-Generator'],
    [undefined, 'node', 'node'],
    [undefined, 'tab\there/1', 'tabhere'],
    [undefined, '', ''],
    [undefined, 'x'.repeat(200), 'x'.repeat(128)],
  ];
  for (const [fieldManager, userAgent, expected] of table) {
    it(`${fieldManager ?? '-'} with User-Agent ${JSON.stringify(userAgent.slice(0, 40))}`, () => {
      assert.equal(managerOf(fieldManager, userAgent), expected);
    });
  }
});

describe('field sets', () => {
  const a = fromMembers([
    ['f:data', 'f:x'],
    ['f:data', 'f:y'],
    ['f:metadata', 'f:labels'],
  ]);
  const b = fromMembers([
    ['f:data', 'f:y'],
    ['f:metadata', 'f:labels'],
    ['f:metadata', 'f:labels', 'f:a'],
  ]);

  it('marks a member with members below it with "."', () => {
    assert.deepEqual(b, {
      'f:data': { 'f:y': {} },
      'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } },
    });
  });

  it('unites, subtracts and intersects members exactly', () => {
    assert.deepEqual(membersOf(intersection(a, b)).map(pathText), ['.data.y', '.metadata.labels']);
    assert.deepEqual(membersOf(difference(a, b)).map(pathText), ['.data.x']);
    assert.deepEqual(membersOf(difference(b, a)).map(pathText), ['.metadata.labels.a']);
    assert.equal(membersOf(union(a, b)).length, 4);
  });

  it('prints paths as kube-apiserver does in conflicts', () => {
    const table: Array<[string[], string]> = [
      [['f:data', 'f:key'], '.data.key'],
      [['f:data', 'f:.dockerconfigjson'], '.data..dockerconfigjson'],
      [
        ['f:spec', 'f:containers', 'k:{"name":"app"}', 'f:image'],
        '.spec.containers[name="app"].image',
      ],
      [['f:spec', 'f:ports', 'k:{"containerPort":80}'], '.spec.ports[containerPort=80]'],
      [['f:metadata', 'f:finalizers', 'v:"x"'], '.metadata.finalizers[="x"]'],
    ];
    for (const [path, text] of table) assert.equal(pathText(path), text);
  });
});

describe('comparing two versions of an object', () => {
  const changed = (before: unknown, after: unknown, skip: string[] = []) => {
    const changes = compareFields(before, after, POD_LISTS, skip);
    return {
      changed: membersOf(changes.changed).map(pathText),
      removed: membersOf(changes.removed).map(pathText),
    };
  };

  it('counts a created object field by field, maps and list items as members, server fields left out', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', uid: 'u', resourceVersion: '3', labels: { app: 'x' } },
      spec: { containers: [{ name: 'main', image: 'busybox' }] },
    };
    assert.deepEqual(changed({}, pod), {
      changed: [
        '.metadata.labels',
        '.metadata.labels.app',
        '.spec.containers',
        '.spec.containers[name="main"]',
        '.spec.containers[name="main"].name',
        '.spec.containers[name="main"].image',
      ],
      removed: [],
    });
  });

  it('finds changed leaves, removed fields and keyed items, and nothing in equal objects', () => {
    const before = {
      data: { a: '1', b: '2' },
      spec: { containers: [{ name: 'm', image: 'one' }] },
    };
    const after = { data: { a: '1', c: '3' }, spec: { containers: [{ name: 'm', image: 'two' }] } };
    assert.deepEqual(changed(before, after), {
      changed: ['.data.c', '.spec.containers[name="m"].image'],
      removed: ['.data.b'],
    });
    assert.deepEqual(changed(before, structuredClone(before)), { changed: [], removed: [] });
  });

  it('leaves out the top-level fields it is told to skip (status on the main resource)', () => {
    assert.deepEqual(changed({ status: { phase: 'A' } }, { status: { phase: 'B' } }, ['status']), {
      changed: [],
      removed: [],
    });
  });
});

describe('recording an Update', () => {
  const key = { manager: 'kubectl-label', operation: 'Update' as const, apiVersion: 'v1' };
  const entry = (
    manager: string,
    paths: string[][],
    time = '2030-01-01T00:00:00Z',
  ): ManagedFieldsEntry => ({
    manager,
    operation: 'Update',
    apiVersion: 'v1',
    time,
    fieldsType: 'FieldsV1',
    fieldsV1: fromMembers(paths),
  });
  const changes = (before: unknown, after: unknown) => compareFields(before, after, ATOMIC_LISTS);

  it('gives the writer what it changed, taken from whoever held it, with the time of the write', () => {
    const entries = [
      entry('kubectl-create', [
        ['f:data', 'f:a'],
        ['f:metadata', 'f:labels', 'f:x'],
      ]),
    ];
    const next = recordUpdate({
      entries,
      existed: true,
      changes: changes(
        { data: { a: '1' }, metadata: { labels: { x: '1' } } },
        { data: { a: '1' }, metadata: { labels: { x: '2' } } },
      ),
      key,
      now: '2031-01-01T00:00:00Z',
    });
    assert.deepEqual(
      next.map((e) => [e.manager, e.time, membersOf(e.fieldsV1 as never).map(pathText)]),
      [
        ['kubectl-create', '2030-01-01T00:00:00Z', ['.data.a']],
        ['kubectl-label', '2031-01-01T00:00:00Z', ['.metadata.labels.x']],
      ],
    );
  });

  it('changes nothing, times included, when the write changed no field', () => {
    const entries = [entry('kubectl-label', [['f:data', 'f:a']])];
    const same = { data: { a: '1' } };
    assert.deepEqual(
      recordUpdate({
        entries,
        existed: true,
        changes: changes(same, same),
        key,
        now: '2031-01-01T00:00:00Z',
      }),
      entries,
    );
  });

  it('does not start tracking an existing object that tracks nothing', () => {
    const next = recordUpdate({
      entries: [],
      existed: true,
      changes: changes({ data: { a: '1' } }, { data: { a: '2' } }),
      key,
      now: '2031-01-01T00:00:00Z',
    });
    assert.deepEqual(next, []);
  });

  it(`folds the oldest Update entries past ${MAX_UPDATE_MANAGERS} into ${ANCIENT_CHANGES_MANAGER}`, () => {
    const entries = Array.from({ length: MAX_UPDATE_MANAGERS }, (_, i) =>
      entry(`m${i}`, [['f:data', `f:k${i}`]], `2030-01-01T00:00:${String(10 + i)}Z`),
    );
    const next = recordUpdate({
      entries,
      existed: true,
      changes: changes({ data: {} }, { data: { new: '1' } }),
      key,
      now: '2031-01-01T00:00:00Z',
    });
    assert.equal(next.length, MAX_UPDATE_MANAGERS);
    const ancient = next.find((e) => e.manager === ANCIENT_CHANGES_MANAGER)!;
    assert.deepEqual(membersOf(ancient.fieldsV1 as never).map(pathText), ['.data.k0', '.data.k1']);
    assert.ok(!next.some((e) => e.manager === 'm0' || e.manager === 'm1'));
  });
});

describe('server-side apply conflicts', () => {
  const apply = (
    live: KubeObject | undefined,
    applied: KubeObject,
    manager: string,
    force = false,
  ) =>
    serverSideApply({
      live,
      applied: structuredClone(applied),
      manager,
      apiVersion: 'v1',
      now: '2030-01-01T00:00:00Z',
      strategies: ATOMIC_LISTS,
      skip: [],
      force,
    });
  const config = (value: string, extra: Record<string, string> = {}): KubeObject => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'c' },
    data: { key: value, ...extra },
  });
  const conflict = (call: () => unknown) => {
    try {
      call();
    } catch (err) {
      assert.ok(err instanceof ApiError);
      return err.status;
    }
    assert.fail('the apply succeeded, a conflict was expected');
  };

  it('refuses a field another applier holds with another value, as kube-apiserver words it', () => {
    const live = apply(undefined, config('one'), 'kubectl');
    const status = conflict(() => apply(live, config('two'), 'other'));
    assert.equal(status.code, 409);
    assert.equal(status.reason, 'Conflict');
    assert.equal(
      status.message,
      'Apply failed with 1 conflict: conflict with "kubectl": .data.key',
    );
    assert.deepEqual(status.details, {
      causes: [
        { reason: 'FieldManagerConflict', message: 'conflict with "kubectl"', field: '.data.key' },
      ],
    });
  });

  it('names Update managers with their API version, and lists several conflicts by manager', () => {
    const live = apply(undefined, config('one', { more: 'a' }), 'kubectl');
    metaOf(live).managedFields = [
      {
        manager: 'kubectl-edit',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2030-01-01T00:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: fromMembers([
          ['f:data', 'f:key'],
          ['f:data', 'f:more'],
        ]),
      },
    ];
    const status = conflict(() => apply(live, config('two', { more: 'b' }), 'other'));
    assert.equal(
      status.message,
      'Apply failed with 2 conflicts: conflicts with "kubectl-edit" using v1:\n- .data.key\n- .data.more',
    );
  });

  it('shares a field set to the value it has, and takes fields when forced', () => {
    const live = apply(undefined, config('one'), 'kubectl');
    const shared = apply(live, config('one'), 'other');
    assert.deepEqual(
      metaOf(shared).managedFields!.map((e) => e.manager),
      ['kubectl', 'other'],
    );
    const forced = apply(shared, config('two'), 'other', true);
    assert.deepEqual(forced['data'], { key: 'two' });
    assert.deepEqual(
      metaOf(forced).managedFields!.map((e) => [
        e.manager,
        membersOf(e.fieldsV1 as never).map(pathText),
      ]),
      [['other', ['.data.key']]],
    );
  });

  it('lets kubectl take the fields of its client-side apply annotation', () => {
    const live = apply(undefined, config('one'), 'kubectl-client-side-apply');
    metaOf(live).managedFields![0]!.operation = 'Update';
    metaOf(live).annotations = {
      'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(config('one')),
    };
    const upgraded = apply(live, config('two'), 'kubectl');
    assert.deepEqual(upgraded['data'], { key: 'two' });
    conflict(() => apply(live, config('two'), 'someone-else'));
  });

  it('gives what an untracked object held to before-first-apply', () => {
    const live: KubeObject = { ...config('one'), metadata: { name: 'c', uid: 'u' } };
    const status = conflict(() => apply(live, config('two'), 'other'));
    assert.equal(
      status.message,
      'Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.key',
    );
  });
});
