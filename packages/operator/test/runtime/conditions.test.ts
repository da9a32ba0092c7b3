import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  conditionOf,
  isTrue,
  kubeTime,
  removeCondition,
  setCondition,
  type Condition,
  type ConditionUpdate,
} from '../../src/runtime/conditions.js';

const earlier = '2026-01-01T00:00:00Z';
const now = new Date('2026-01-02T03:04:05.678Z');
const ready: Condition = {
  type: 'Ready',
  status: 'True',
  reason: 'Reconciled',
  message: 'all good',
  lastTransitionTime: earlier,
  observedGeneration: 1,
};
const namespaceReady: Condition = { ...ready, type: 'NamespaceReady', reason: 'Created' };

describe('conditions', () => {
  it('writes times to the second, as the API server keeps them', () => {
    assert.equal(kubeTime(now), '2026-01-02T03:04:05Z');
  });

  const cases: {
    name: string;
    before: Condition[] | undefined;
    next: ConditionUpdate;
    after: Condition[];
  }[] = [
    {
      name: 'adds a new condition with the current time',
      before: undefined,
      next: { type: 'Ready', status: 'False', reason: 'Pending', message: 'waiting' },
      after: [
        {
          type: 'Ready',
          status: 'False',
          reason: 'Pending',
          message: 'waiting',
          lastTransitionTime: '2026-01-02T03:04:05Z',
        },
      ],
    },
    {
      name: 'keeps the transition time when only the reason, message and generation change',
      before: [ready, namespaceReady],
      next: {
        type: 'Ready',
        status: 'True',
        reason: 'StillFine',
        message: 'still good',
        observedGeneration: 2,
      },
      after: [
        { ...ready, reason: 'StillFine', message: 'still good', observedGeneration: 2 },
        namespaceReady,
      ],
    },
    {
      name: 'moves the transition time when the status changes, keeping the order',
      before: [namespaceReady, ready],
      next: {
        type: 'Ready',
        status: 'False',
        reason: 'NamespaceConflict',
        message: 'taken',
        observedGeneration: 3,
      },
      after: [
        namespaceReady,
        {
          type: 'Ready',
          status: 'False',
          reason: 'NamespaceConflict',
          message: 'taken',
          lastTransitionTime: '2026-01-02T03:04:05Z',
          observedGeneration: 3,
        },
      ],
    },
    {
      name: 'appends a type not yet present',
      before: [ready],
      next: { type: 'NamespaceReady', status: 'True', reason: 'Created', message: 'all good' },
      after: [
        ready,
        {
          type: 'NamespaceReady',
          status: 'True',
          reason: 'Created',
          message: 'all good',
          lastTransitionTime: '2026-01-02T03:04:05Z',
        },
      ],
    },
  ];
  for (const { name, before, next, after } of cases) {
    it(name, () => {
      const snapshot = structuredClone(before);
      assert.deepEqual(setCondition(before, next, now), after);
      assert.deepEqual(before, snapshot, 'the input is left as it was');
    });
  }

  it('finds, tests and removes conditions by type', () => {
    const list = [ready, { ...namespaceReady, status: 'Unknown' as const }];
    assert.equal(conditionOf(list, 'Ready'), ready);
    assert.equal(conditionOf(list, 'Missing'), undefined);
    assert.equal(conditionOf(undefined, 'Ready'), undefined);
    assert.equal(isTrue(list, 'Ready'), true);
    assert.equal(isTrue(list, 'NamespaceReady'), false);
    assert.equal(isTrue(undefined, 'Ready'), false);
    assert.deepEqual(removeCondition(list, 'Ready'), [list[1]]);
  });
});
