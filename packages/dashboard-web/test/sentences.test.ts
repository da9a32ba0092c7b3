import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asSentence, errorCode } from '../src/pages/sentences.js';

describe('asSentence', () => {
  const cases: [string, string][] = [
    ['name is too long', 'Name is too long.'],
    ['  done!  ', 'Done!'],
    ['Why?', 'Why?'],
    ['', 'Something went wrong. Please try again.'],
    ['   ', 'Something went wrong. Please try again.'],
  ];
  for (const [message, want] of cases) {
    it(`writes “${message}” as “${want}”`, () => assert.equal(asSentence(message), want));
  }
});

describe('errorCode', () => {
  const cases: [string, unknown, string | undefined][] = [
    ['an error with a code', Object.assign(new Error('x'), { code: 'conflict' }), 'conflict'],
    ['an error without one', new Error('x'), undefined],
    ['an error with a numeric code', Object.assign(new Error('x'), { code: 11 }), undefined],
    ['no error', { code: 'conflict' }, undefined],
    ['nothing', undefined, undefined],
  ];
  for (const [name, err, want] of cases) {
    it(`reads ${name}`, () => assert.equal(errorCode(err), want));
  }
});
