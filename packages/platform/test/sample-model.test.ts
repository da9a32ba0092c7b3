import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UsageError } from '@paddock/common';
import { sampleModelFrom, sampleModelLine } from '../src/sample-model.js';

describe("the sample agent's model, from PADDOCK_MODEL_*", () => {
  const cases: [string, NodeJS.ProcessEnv, ReturnType<typeof sampleModelFrom>][] = [
    ['none given: no provider', {}, undefined],
    [
      'blank values count as none',
      { PADDOCK_MODEL_BASE_URL: ' ', PADDOCK_MODEL_API_KEY: '' },
      undefined,
    ],
    [
      'a local server without a key',
      { PADDOCK_MODEL_BASE_URL: 'http://127.0.0.1:11434/v1', PADDOCK_MODEL: 'qwen2.5-coder:7b' },
      {
        provider: { type: 'openai', baseURL: 'http://127.0.0.1:11434/v1' },
        model: 'qwen2.5-coder:7b',
      },
    ],
    [
      "a provider's API with a key, in a Secret",
      { PADDOCK_MODEL_API_KEY: 'sk-abc', PADDOCK_MODEL_PROVIDER: 'anthropic' },
      {
        provider: { type: 'anthropic', apiKeySecretRef: { name: 'sample-model' } },
        apiKey: 'sk-abc',
      },
    ],
  ];
  for (const [name, env, expected] of cases) {
    it(name, () => assert.deepEqual(sampleModelFrom(env), expected));
  }
  const refused: [string, NodeJS.ProcessEnv, RegExp][] = [
    ['a model without a server', { PADDOCK_MODEL: 'gpt-4.1' }, /need PADDOCK_MODEL_BASE_URL/],
    [
      'an unknown provider',
      { PADDOCK_MODEL_API_KEY: 'k', PADDOCK_MODEL_PROVIDER: 'gemini' },
      /"gemini" is not one of openai, anthropic/,
    ],
    ['a base URL that is no URL', { PADDOCK_MODEL_BASE_URL: 'localhost:11434' }, /not an http/],
  ];
  for (const [name, env, message] of refused) {
    it(`refuses ${name}`, () =>
      assert.throws(
        () => sampleModelFrom(env),
        (err: unknown) => err instanceof UsageError && message.test(err.message),
      ));
  }
  it('is said in the banner, or how to give one', () => {
    assert.match(sampleModelLine(undefined), /none: set PADDOCK_MODEL_BASE_URL/);
    assert.match(
      sampleModelLine(
        sampleModelFrom({ PADDOCK_MODEL_BASE_URL: 'http://h:1/v1', PADDOCK_MODEL: 'm' }),
      ),
      /m at http:\/\/h:1\/v1/,
    );
  });
});
