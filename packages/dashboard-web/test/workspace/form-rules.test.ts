import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newNameProblem, savedMessage } from '../../src/pages/workspaces/form-rules.js';
import { OBJECT_NAME_HINT } from '../../src/pages/workspaces/object-names.js';
import {
  promptPackSpecOf,
  type PromptPackDraft,
} from '../../src/pages/workspaces/prompt-pack-rules.js';
import { registrySpecOf } from '../../src/pages/workspaces/tool-registry-rules.js';

const NAME_PROBLEM = `The name is not a valid object name. ${OBJECT_NAME_HINT}`;

describe('newNameProblem', () => {
  const cases: [string, boolean, string, string | null][] = [
    ['a free, valid name', true, 'coder', null],
    ['an invalid name', true, 'Coder', NAME_PROBLEM],
    [
      'a taken name',
      true,
      'helper',
      'A prompt pack named “helper” already exists: edit it, or choose another name.',
    ],
    // An edited object keeps its name, taken (by itself) or not.
    ['the name of an object being edited', false, 'helper', null],
  ];
  for (const [name, isNew, value, want] of cases) {
    it(`says ${want === null ? 'nothing' : 'why'} for ${name}`, () =>
      assert.equal(newNameProblem(isNew, value, ['helper'], 'prompt pack'), want));
  }
});

describe('savedMessage', () => {
  it('says created for a new object, saved for an edited one', () => {
    assert.equal(savedMessage(true, 'tool registry', 'web'), 'Created the tool registry “web”.');
    assert.equal(savedMessage(false, 'prompt pack', 'helper'), 'Saved the prompt pack “helper”.');
  });
});

describe('promptPackSpecOf', () => {
  const draft = (change: Partial<PromptPackDraft>): PromptPackDraft => ({
    isNew: true,
    name: 'helper',
    taken: [],
    description: '',
    systemPrompt: 'Be helpful.',
    prompts: [],
    ...change,
  });
  it('sends the system prompt as written, names and description trimmed', () => {
    assert.deepEqual(
      promptPackSpecOf(
        draft({
          description: ' Helps ',
          systemPrompt: '  Be helpful.\n',
          prompts: [{ name: ' hi ', content: ' Say hi. ' }],
        }),
      ),
      {
        ok: true,
        value: {
          systemPrompt: '  Be helpful.\n',
          prompts: [{ name: 'hi', content: ' Say hi. ' }],
          description: 'Helps',
        },
      },
    );
  });
  it('leaves out an empty description', () => {
    assert.deepEqual(promptPackSpecOf(draft({ description: '  ' })), {
      ok: true,
      value: { systemPrompt: 'Be helpful.', prompts: [] },
    });
  });
  const refused: [string, Partial<PromptPackDraft>, string][] = [
    ['an invalid new name', { name: 'Helper' }, NAME_PROBLEM],
    [
      'a taken new name',
      { taken: ['helper'] },
      'A prompt pack named “helper” already exists: edit it, or choose another name.',
    ],
    ['an empty system prompt', { systemPrompt: ' \n' }, 'The system prompt is required.'],
    [
      'a prompt without a name',
      {
        prompts: [
          { name: 'a', content: '' },
          { name: ' ', content: 'x' },
        ],
      },
      'Every prompt needs a name.',
    ],
    [
      'two prompts of one name',
      {
        prompts: [
          { name: 'a', content: '' },
          { name: ' a', content: 'x' },
        ],
      },
      'Two prompts are named “a”: prompt names must differ.',
    ],
  ];
  for (const [name, change, problem] of refused) {
    it(`refuses ${name}`, () =>
      assert.deepEqual(promptPackSpecOf(draft(change)), { ok: false, problem }));
  }
  it('takes the name of a pack being edited as it is', () => {
    assert.equal(promptPackSpecOf(draft({ isNew: false, taken: ['helper'] })).ok, true);
  });
});

describe('registrySpecOf', () => {
  it('reads a JSON object', () => {
    assert.deepEqual(registrySpecOf('{"handlers": [{"name": "web"}]}'), {
      ok: true,
      value: { handlers: [{ name: 'web' }] },
    });
  });
  const notObjects = ['[]', 'null', '3', '"spec"'];
  for (const text of notObjects) {
    it(`refuses ${text}, which is no object`, () =>
      assert.deepEqual(registrySpecOf(text), {
        ok: false,
        problem: 'The spec must be a JSON object, such as {"handlers": […]}.',
      }));
  }
  it('refuses what is not JSON, saying why', () => {
    const checked = registrySpecOf('{handlers');
    assert.equal(checked.ok, false);
    assert.match(!checked.ok ? checked.problem : '', /^The spec is not valid JSON: \S/);
  });
});
