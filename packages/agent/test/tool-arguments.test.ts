import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseToolArguments } from '../src/providers/tool-arguments.js';

describe('parseToolArguments', () => {
  const cases: [text: string, args: unknown, invalid: RegExp | undefined][] = [
    ['{"command":"ls"}', { command: 'ls' }, undefined],
    ['{}', {}, undefined],
    ['', {}, undefined],
    ['  ', {}, undefined],
    ['{"command":', '{"command":', /not valid JSON/],
    ['ls -la', 'ls -la', /not valid JSON/],
    ['[1,2]', [1, 2], /must be a JSON object/],
    ['"text"', 'text', /must be a JSON object/],
    ['null', null, /must be a JSON object/],
    ['42', 42, /must be a JSON object/],
  ];
  for (const [text, args, invalid] of cases) {
    it(`${JSON.stringify(text)} → ${invalid ? 'invalid' : JSON.stringify(args)}`, () => {
      const parsed = parseToolArguments(text);
      assert.deepEqual(parsed.arguments, args);
      if (invalid) assert.match(parsed.invalidArguments ?? '', invalid);
      else assert.equal(parsed.invalidArguments, undefined);
    });
  }
});
