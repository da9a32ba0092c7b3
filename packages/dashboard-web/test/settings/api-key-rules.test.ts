import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DEFAULT_EXPIRY_DAYS,
  EXPIRY_CHOICES,
  expiryState,
  keyErrorSentence,
  keyMessages,
  keyNameProblem,
  type ExpiryState,
} from '../../src/pages/settings/api-key-rules.js';

/** An error as the API wrapper throws it: a message and the dashboard's error code. */
const apiError = (code: string, message: string) => Object.assign(new Error(message), { code });

const NOW = Date.parse('2026-11-26T12:00:00Z');
const DAY = 86_400_000;
const at = (ms: number) => new Date(NOW + ms).toISOString();

describe('expiryState', () => {
  const cases: [string, string | null, ExpiryState][] = [
    ['a key without expiry', null, 'never'],
    ['a key past its expiry', at(-DAY), 'expired'],
    ['a key expiring this moment', at(0), 'expired'],
    ['a key expiring in an hour', at(3_600_000), 'soon'],
    ['a key expiring just within a week', at(7 * DAY - 1), 'soon'],
    ['a key expiring in exactly a week', at(7 * DAY), 'later'],
    ['a key expiring in a month', at(30 * DAY), 'later'],
  ];
  for (const [name, expires, want] of cases) {
    it(`says ${want} for ${name}`, () => assert.equal(expiryState(expires, NOW), want));
  }
});

describe('EXPIRY_CHOICES', () => {
  it('offers the default, and never (0 days)', () => {
    assert.ok(EXPIRY_CHOICES.some((c) => c.days === DEFAULT_EXPIRY_DAYS));
    assert.deepEqual(
      EXPIRY_CHOICES.map((c) => c.days),
      [30, 90, 365, 0],
    );
  });
});

describe('keyNameProblem', () => {
  const cases: [string, string | null][] = [
    ['CI pipeline', null],
    ['  x  ', null],
    ['', 'Give the key a name, like “CI pipeline”.'],
    ['   ', 'Give the key a name, like “CI pipeline”.'],
  ];
  for (const [name, want] of cases) {
    it(`${want === null ? 'takes' : 'refuses'} “${name}”`, () =>
      assert.equal(keyNameProblem(name), want));
  }
});

describe('keyErrorSentence', () => {
  const cases: [string, unknown, string][] = [
    [
      'a full quota, with how to make room',
      apiError('api_key_limit_reached', 'you have 10 keys, the most allowed'),
      'You have 10 keys, the most allowed. Revoke a key you no longer use to make room.',
    ],
    [
      'another API error, as a sentence',
      apiError('invalid_request', 'name is too long'),
      'Name is too long.',
    ],
    ['any error, as a sentence', new Error('network down!'), 'Network down!'],
    ['something that is no error', 'oops', 'Something went wrong.'],
  ];
  for (const [name, err, want] of cases) {
    it(`says ${name}`, () => assert.equal(keyErrorSentence(err), want));
  }
});

describe('keyMessages', () => {
  it('names the key revoked, or not revoked and why', () => {
    assert.equal(keyMessages.revoked('CI'), 'The key “CI” is revoked: it no longer works.');
    assert.equal(
      keyMessages.notRevoked('CI', apiError('not_found', 'no such key')),
      'The key “CI” was not revoked. No such key.',
    );
  });
});
