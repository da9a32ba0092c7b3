import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  MAX_REPLICAS,
  agentMessages,
  agentRowKey,
  chosenPack,
  hasRowActions,
  newAgentOf,
  noAgentsHint,
  packLabel,
  replicasCeiling,
  scaleTarget,
  shownOfTotal,
  type AgentDraft,
} from '../../src/pages/workspaces/agent-rules.js';
import type { Checked } from '../../src/pages/workspaces/form-rules.js';
import { OBJECT_NAME_HINT, objectNameProblem } from '../../src/pages/workspaces/object-names.js';
import type { NewAgent } from '../../src/pages/workspaces/types.js';

const NAME_PROBLEM = `The name is not a valid object name. ${OBJECT_NAME_HINT}`;
const REPLICAS_PROBLEM = 'Replicas must be a whole number, 0 or more.';

describe('objectNameProblem', () => {
  const cases: [string, boolean][] = [
    ['writer', true],
    ['a', true],
    ['web-1.v2', true],
    ['9lives', true],
    ['a'.repeat(253), true],
    ['a'.repeat(254), false],
    ['', false],
    ['Writer', false],
    ['-writer', false],
    ['writer.', false],
    ['my_agent', false],
    ['two words', false],
  ];
  for (const [name, valid] of cases) {
    it(`${valid ? 'takes' : 'refuses'} “${name.length > 20 ? `${name.length} letters` : name}”`, () =>
      assert.equal(objectNameProblem(name), valid ? null : NAME_PROBLEM));
  }
});

describe('scaleTarget', () => {
  const cases: [string, Checked<number>][] = [
    ['0', { ok: true, value: 0 }],
    ['3', { ok: true, value: 3 }],
    [' 4 ', { ok: true, value: 4 }],
    [String(MAX_REPLICAS), { ok: true, value: MAX_REPLICAS }],
    [String(MAX_REPLICAS + 1), { ok: false, problem: `Replicas can be at most ${MAX_REPLICAS}.` }],
    ['', { ok: false, problem: REPLICAS_PROBLEM }],
    ['  ', { ok: false, problem: REPLICAS_PROBLEM }],
    ['-1', { ok: false, problem: REPLICAS_PROBLEM }],
    ['1.5', { ok: false, problem: REPLICAS_PROBLEM }],
    ['two', { ok: false, problem: REPLICAS_PROBLEM }],
  ];
  for (const [text, want] of cases) {
    it(`reads “${text}”`, () => assert.deepEqual(scaleTarget(text), want));
  }
});

describe('newAgentOf', () => {
  const draft = (change: Partial<AgentDraft>): AgentDraft => ({
    name: 'writer',
    promptPack: 'helper',
    replicas: '1',
    model: '',
    ...change,
  });
  const cases: [string, AgentDraft, Checked<NewAgent>][] = [
    [
      'an agent without a model',
      draft({}),
      { ok: true, value: { name: 'writer', promptPack: 'helper', replicas: 1 } },
    ],
    [
      'a trimmed model',
      draft({ model: ' claude-sonnet-4 ', replicas: '0' }),
      {
        ok: true,
        value: { name: 'writer', promptPack: 'helper', replicas: 0, model: 'claude-sonnet-4' },
      },
    ],
    // Creating asks no more than a whole number: the workspace's quota answers the rest.
    [
      'replicas above what one scaling takes',
      draft({ replicas: '5000' }),
      { ok: true, value: { name: 'writer', promptPack: 'helper', replicas: 5000 } },
    ],
    ['a bad name', draft({ name: 'Writer' }), { ok: false, problem: NAME_PROBLEM }],
    [
      'no prompt pack',
      draft({ promptPack: '' }),
      { ok: false, problem: 'Choose the prompt pack the agent follows.' },
    ],
    ['bad replicas', draft({ replicas: '-2' }), { ok: false, problem: REPLICAS_PROBLEM }],
    [
      'the first problem in the order of the fields',
      draft({ name: '', promptPack: '', replicas: 'x' }),
      { ok: false, problem: NAME_PROBLEM },
    ],
  ];
  for (const [name, input, want] of cases) {
    it(`checks ${name}`, () => assert.deepEqual(newAgentOf(input), want));
  }
});

describe('chosenPack', () => {
  const choices = [{ name: 'helper' }, { name: 'coder' }];
  const cases: [string, string, { name: string }[], string][] = [
    ['the one picked', 'coder', choices, 'coder'],
    ['the first, when none is picked', '', choices, 'helper'],
    ['none, when there are none', '', [], ''],
  ];
  for (const [name, picked, list, want] of cases) {
    it(`is ${name}`, () => assert.equal(chosenPack(picked, list), want));
  }
});

describe('hasRowActions', () => {
  const cases: [boolean, boolean, boolean][] = [
    [false, false, false],
    [true, false, true],
    [false, true, true],
    [true, true, true],
  ];
  for (const [scaleAgents, deleteAgents, want] of cases) {
    it(`scale ${scaleAgents}, delete ${deleteAgents}: ${want}`, () =>
      assert.equal(hasRowActions({ scaleAgents, deleteAgents }), want));
  }
});

describe('what the tab shows', () => {
  it('offers the quota as the ceiling, else what one request may ask', () => {
    assert.equal(replicasCeiling(5), 5);
    assert.equal(replicasCeiling(undefined), MAX_REPLICAS);
  });
  it('keys a row by name and wanted replicas', () => {
    assert.equal(agentRowKey({ name: 'writer', replicas: 2 }), 'writer:2');
  });
  it('says when the table holds only the first agents', () => {
    assert.equal(shownOfTotal(3, 3), '');
    assert.equal(shownOfTotal(1000, 1200), ' (the first 1000 of 1200)');
  });
  it('tells who can create an agent', () => {
    assert.equal(noAgentsHint(true), ' Create one with “Create agent”.');
    assert.equal(noAgentsHint(false), ' An editor or owner of the workspace can create one.');
  });
  it('labels a prompt pack with its description when it has one', () => {
    assert.equal(packLabel({ name: 'helper', description: 'Helps' }), 'helper — Helps');
    assert.equal(packLabel({ name: 'helper', description: null }), 'helper');
  });
  it('counts replicas in the scaling message', () => {
    assert.equal(agentMessages.scaled('w', 1), 'Scaled the agent “w” to 1 replica.');
    assert.equal(agentMessages.scaled('w', 0), 'Scaled the agent “w” to 0 replicas.');
    assert.equal(agentMessages.created('w'), 'Created the agent “w”.');
    assert.equal(agentMessages.deleted('w'), 'Deleted the agent “w”.');
  });
});
