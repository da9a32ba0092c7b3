import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  activeTab,
  chosenPod,
  defaultPod,
  noPodText,
  podsByName,
  showsPod,
  tabIndexAfterKey,
  tabParam,
  tabsFor,
  withParams,
  type TabKey,
} from '../../src/pages/workspaces/agent-tabs.js';
import type { WorkspacePermissions } from '../../src/pages/workspaces/types.js';

const permissions = (granted: Partial<WorkspacePermissions>): WorkspacePermissions => ({
  scaleAgents: false,
  createAgents: false,
  deleteAgents: false,
  modifyPrompts: false,
  modifyTools: false,
  manageMembers: false,
  viewFiles: false,
  useTerminal: false,
  useMcp: false,
  ...granted,
});
const keys = (p: Partial<WorkspacePermissions>) => tabsFor(permissions(p)).map((t) => t.key);

describe('tabsFor', () => {
  it('shows everyone the overview, how to connect and the log', () => {
    assert.deepEqual(keys({}), ['overview', 'connect', 'log']);
  });
  it('adds files and changes for those who may read the workspace', () => {
    assert.deepEqual(keys({ viewFiles: true }), ['overview', 'files', 'changes', 'connect', 'log']);
  });
  it('adds the terminal for those who may open one', () => {
    assert.deepEqual(keys({ viewFiles: true, useTerminal: true }), [
      'overview',
      'files',
      'changes',
      'terminal',
      'connect',
      'log',
    ]);
  });
  it('adds the runs for those who may read them, after the overview', () => {
    assert.deepEqual(keys({ viewRuns: true }), ['overview', 'runs', 'connect', 'log']);
    assert.deepEqual(keys({ viewRuns: true, startRuns: true, viewFiles: true }), [
      'overview',
      'runs',
      'files',
      'changes',
      'connect',
      'log',
    ]);
  });
  it('leaves the runs out for those who may not read them', () => {
    assert.deepEqual(keys({ viewFiles: true, viewRuns: false }), [
      'overview',
      'files',
      'changes',
      'connect',
      'log',
    ]);
  });
});

describe('activeTab', () => {
  const tabs = tabsFor(permissions({ viewFiles: true }));
  const cases: [string | null, TabKey][] = [
    [null, 'overview'],
    ['files', 'files'],
    ['log', 'log'],
    // A tab the person does not see, or none at all, opens the overview.
    ['terminal', 'overview'],
    ['nonsense', 'overview'],
  ];
  for (const [param, want] of cases) {
    it(`opens ${want} for ?tab=${param}`, () => assert.equal(activeTab(tabs, param), want));
  }
  it('leaves the overview out of the address', () => {
    assert.equal(tabParam('overview'), null);
    assert.equal(tabParam('files'), 'files');
  });
  it('shows the pod on the tabs that work on one', () => {
    const all = ['overview', 'runs', 'files', 'changes', 'terminal', 'connect', 'log'] as const;
    assert.deepEqual(all.filter(showsPod), ['runs', 'files', 'changes', 'terminal']);
  });
});

describe('pods', () => {
  const pods = [
    { name: 'w-2', phase: 'Running' },
    { name: 'w-0', phase: 'Pending' },
    { name: 'w-1', phase: 'Running' },
  ];
  it('sorts pods by name without changing the list', () => {
    assert.deepEqual(
      podsByName(pods).map((p) => p.name),
      ['w-0', 'w-1', 'w-2'],
    );
    assert.equal(pods[0]!.name, 'w-2');
  });
  const defaults: [string, { name: string; phase: string }[], string | undefined][] = [
    ['the first running pod by name', pods, 'w-1'],
    [
      'the first by name when none runs',
      [
        { name: 'b', phase: 'Pending' },
        { name: 'a', phase: 'Failed' },
      ],
      'a',
    ],
    ['none without pods', [], undefined],
  ];
  for (const [name, list, want] of defaults) {
    it(`starts with ${name}`, () => assert.equal(defaultPod(list), want));
  }
  const chosen: [string | null, string | undefined][] = [
    ['w-0', 'w-0'],
    ['w-9', 'w-1'],
    [null, 'w-1'],
  ];
  for (const [param, want] of chosen) {
    it(`shows ${want} for ?pod=${param}`, () => assert.equal(chosenPod(pods, param), want));
  }
  it('says why there is no pod to open', () => {
    assert.equal(
      noPodText(0),
      'The agent is scaled to 0 replicas, so there is no workspace to open.',
    );
    assert.equal(
      noPodText(2),
      'No pod runs for this agent yet: its workspace opens once one does.',
    );
  });
});

describe('tabIndexAfterKey', () => {
  const cases: [string, number, number][] = [
    ['ArrowRight', 1, 2],
    ['ArrowRight', 4, 0],
    ['ArrowLeft', 1, 0],
    ['ArrowLeft', 0, 4],
    ['Home', 3, 0],
    ['End', 1, 4],
    ['Enter', 2, -1],
    ['a', 2, -1],
  ];
  for (const [key, at, want] of cases) {
    it(`moves ${key} from ${at} to ${want} of 5`, () =>
      assert.equal(tabIndexAfterKey(key, at, 5), want));
  }
});

describe('withParams', () => {
  it('sets, replaces and removes parameters, keeping the others', () => {
    const current = new URLSearchParams('tab=files&pod=w-1&path=src/a.ts');
    assert.equal(
      withParams(current, { pod: 'w-2', path: null, extra: 'x y' }).toString(),
      'tab=files&pod=w-2&extra=x+y',
    );
    assert.equal(current.toString(), 'tab=files&pod=w-1&path=src%2Fa.ts');
  });
});
