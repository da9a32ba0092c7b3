import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  MAX_TASK_CHARS,
  MAX_VARIABLE_CHARS,
  taskOf,
  variablesOf,
  type TaskDecision,
  type TaskRequest,
} from '../../src/runs/task.js';

const PROMPTS = [
  { name: 'fix-bug', content: 'Fix the bug in {{file}}: {{ symptom }}. Then run {{file}} again.' },
  { name: 'tidy', content: 'Tidy the repository.' },
];

describe('the task of a run', () => {
  const cases: Array<[string, TaskRequest, TaskDecision]> = [
    ['free text', { task: 'Write hello.sh' }, { ok: true, text: 'Write hello.sh' }],
    [
      'a prompt with its variables, each place filled',
      { prompt: { name: 'fix-bug', variables: { file: 'a.py', symptom: 'it crashes' } } },
      { ok: true, text: 'Fix the bug in a.py: it crashes. Then run a.py again.' },
    ],
    [
      'a prompt without variables',
      { prompt: { name: 'tidy' } },
      { ok: true, text: 'Tidy the repository.' },
    ],
    [
      'a value that looks like a placeholder stays as given',
      { prompt: { name: 'fix-bug', variables: { file: '{{symptom}}', symptom: 'x' } } },
      { ok: true, text: 'Fix the bug in {{symptom}}: x. Then run {{symptom}} again.' },
    ],
    [
      'neither',
      {},
      { ok: false, message: 'give either task (free text) or prompt (a prompt of the pack)' },
    ],
    [
      'both',
      { task: 'x', prompt: { name: 'tidy' } },
      { ok: false, message: 'give either task (free text) or prompt (a prompt of the pack)' },
    ],
    [
      'an unknown prompt',
      { prompt: { name: 'deploy' } },
      { ok: false, message: 'the PromptPack has no prompt "deploy" (it has: fix-bug, tidy)' },
    ],
    [
      'a missing variable',
      { prompt: { name: 'fix-bug', variables: { file: 'a.py' } } },
      { ok: false, message: 'missing variables of fix-bug: symptom' },
    ],
    [
      'an unknown variable',
      { prompt: { name: 'tidy', variables: { path: '.' } } },
      { ok: false, message: 'tidy has no variables path' },
    ],
    ['an empty task', { task: '  ' }, { ok: false, message: 'the task is empty' }],
    [
      'an over-long task',
      { task: 'x'.repeat(MAX_TASK_CHARS + 1) },
      { ok: false, message: `the task is over ${MAX_TASK_CHARS} characters` },
    ],
    [
      'an over-long variable',
      {
        prompt: {
          name: 'fix-bug',
          variables: { file: 'a', symptom: 'y'.repeat(MAX_VARIABLE_CHARS + 1) },
        },
      },
      { ok: false, message: `variable symptom is over ${MAX_VARIABLE_CHARS} characters` },
    ],
  ];
  for (const [name, request, expected] of cases) {
    it(name, () => assert.deepEqual(taskOf(request, PROMPTS), expected));
  }

  it('names the variables a prompt asks for, once each', () => {
    assert.deepEqual(variablesOf(PROMPTS[0]!.content), ['file', 'symptom']);
    assert.deepEqual(variablesOf('no variables {here}'), []);
  });
});
