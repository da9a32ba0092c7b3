import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  escapeFieldValue,
  matchesFields,
  parseFieldSelector,
  requiredFieldValue,
  type FieldSelector,
} from '../../src/query/field-selector.js';
import { SelectorError } from '../../src/query/label-selector.js';
import { requestInfo } from '../../src/server/request-info.js';

/**
 * The one field-selector parser: the authorizer reads the name a list or watch is narrowed to from
 * it, and the store filters with it, so the two cannot disagree.
 */

const eq = (field: string, value: string) => ({ field, operator: '=' as const, value });
const ne = (field: string, value: string) => ({ field, operator: '!=' as const, value });

const PARSES: Array<[string, FieldSelector]> = [
  ['', []],
  [',', []],
  ['a=b', [eq('a', 'b')]],
  ['a==b', [eq('a', 'b')]],
  ['a!=b', [ne('a', 'b')]],
  ['a=', [eq('a', '')]],
  ['a!=', [ne('a', '')]],
  ['=b', [eq('', 'b')]],
  ['a=b,c!=d', [eq('a', 'b'), ne('c', 'd')]],
  ['a=b,,c=d', [eq('a', 'b'), eq('c', 'd')]],
  ['a=b,', [eq('a', 'b')]],
  ['a=b\\,c', [eq('a', 'b,c')]],
  ['a=b\\=c', [eq('a', 'b=c')]],
  ['a=b\\\\', [eq('a', 'b\\')]],
  ['a=b\\\\,c=d', [eq('a', 'b\\'), eq('c', 'd')]],
  ['a=b\\\\\\,c', [eq('a', 'b\\,c')]],
  ['a!=x\\,y', [ne('a', 'x,y')]],
  [
    'metadata.name!=x\\,metadata.name\\=app-config',
    [ne('metadata.name', 'x,metadata.name=app-config')],
  ],
  // No trimming, as Kubernetes: the spaces are part of the field and the value.
  [' a = b ', [eq(' a ', ' b ')]],
  // The first operator wins; the field has no escapes.
  ['a!b=c', [eq('a!b', 'c')]],
];

const REFUSES: Array<[string, RegExp]> = [
  ['nonsense', /^invalid selector: 'nonsense'; can't understand 'nonsense'$/],
  ['a=b,c', /can't understand 'c'/],
  ['a=b=c', /^invalid field selector: unescaped character in value: '='$/],
  ['a!==b', /unescaped character in value: '='/],
  // An escaped comma keeps the next term inside the value, where its `=` is not escaped.
  ['metadata.name!=x\\,metadata.name=app-config', /unescaped character in value: '='/],
  ['a=b\\\\\\,c=d', /unescaped character in value: '='/],
  ['a=b\\x', /^invalid field selector: invalid escape sequence: \\x$/],
  ['a=b\\', /^invalid field selector: invalid escape sequence: \\$/],
  ['a=b\\!', /invalid escape sequence: \\!/],
  ['a=b\\\\\\', /invalid escape sequence: \\$/],
];

describe('the field selector parser', () => {
  it('reads =, ==, != and the escapes \\, \\= \\\\ as Kubernetes does', () => {
    for (const [text, expected] of PARSES) {
      assert.deepEqual(parseFieldSelector(text), expected, JSON.stringify(text));
    }
  });

  it('refuses what does not parse, with the reason', () => {
    for (const [text, reason] of REFUSES) {
      assert.throws(
        () => parseFieldSelector(text),
        (err: unknown) => err instanceof SelectorError && reason.test(err.message),
        JSON.stringify(text),
      );
    }
  });

  it('escapes any value so that it parses back to itself', () => {
    for (const value of ['', 'plain', 'a,b', 'a=b', 'a\\b', '\\', ',=\\,', 'x\\,metadata.name=y']) {
      assert.deepEqual(parseFieldSelector(`f=${escapeFieldValue(value)}`), [eq('f', value)]);
    }
  });

  it('names the value a field must equal, only when an = or == term requires it', () => {
    const table: Array<[string, string | undefined]> = [
      ['metadata.name=a', 'a'],
      ['metadata.name==a', 'a'],
      ['metadata.name!=a', undefined],
      ['metadata.namespace=a', undefined],
      ['x=1,metadata.name=a', 'a'],
      ['metadata.name=a\\,b', 'a,b'],
      ['metadata.name!=x\\,y,metadata.name=a', 'a'],
      ['metadata.name!=x\\,metadata.name\\=a', undefined],
      ['metadata.name!=x\\\\,metadata.name=a', 'a'],
      ['', undefined],
    ];
    for (const [text, expected] of table) {
      assert.equal(
        requiredFieldValue(parseFieldSelector(text), 'metadata.name'),
        expected,
        JSON.stringify(text),
      );
    }
  });
});

describe('the name RBAC sees for a list agrees with what the selector lets through', () => {
  const SELECTORS = [
    'metadata.name=app-config',
    'metadata.name==app-config',
    'metadata.name!=x\\,metadata.name=app-config',
    'metadata.name!=x\\\\,metadata.name=app-config',
    'metadata.name!=x\\\\\\,metadata.name=app-config',
    'metadata.name=app-config\\,x',
    'metadata.name=x\\,metadata.name=app-config',
    'metadata.namespace=team\\,metadata.name=app-config',
    'metadata.name=app-config,metadata.name!=app-config',
    'metadata.name=app-config\\',
    'metadata.name=a/b',
    'metadata.name=..',
    'metadata.name=%2e',
    'metadata.name=app-config=x',
  ];
  const CANDIDATES = ['app-config', 'db-password', 'x', 'x,metadata.name=app-config', 'a/b', '..'];

  it('never names one object while the store would return another', () => {
    let checked = 0;
    for (const selector of SELECTORS) {
      for (const verb of ['list', 'watch']) {
        const query = new URLSearchParams({ fieldSelector: selector });
        if (verb === 'watch') query.set('watch', 'true');
        const info = requestInfo('GET', '/api/v1/namespaces/team/secrets', query);
        assert.ok(info.isResource);
        assert.equal(info.verb, verb);
        if (info.name === '') continue;
        const parsed = parseFieldSelector(selector);
        for (const name of CANDIDATES) {
          checked++;
          const selected = matchesFields(parsed, (field) =>
            field === 'metadata.name' ? name : field === 'metadata.namespace' ? 'team' : undefined,
          );
          assert.ok(
            !selected || name === info.name,
            `${selector}: RBAC sees ${info.name}, store returns ${name}`,
          );
        }
      }
    }
    assert.ok(checked > 0);
  });

  it('sees no name in a selector that does not parse, so the whole list is authorized', () => {
    for (const selector of ['metadata.name=app-config\\', 'metadata.name=app-config=x', 'oops']) {
      const info = requestInfo(
        'GET',
        '/api/v1/namespaces/team/secrets',
        new URLSearchParams({ fieldSelector: selector }),
      );
      assert.ok(info.isResource);
      assert.equal(info.name, '', selector);
    }
  });

  it('sees no name that is not a valid path segment', () => {
    for (const value of ['a/b', '..', '.', 'a%2fb']) {
      const info = requestInfo(
        'GET',
        '/api/v1/namespaces/team/secrets',
        new URLSearchParams({ fieldSelector: `metadata.name=${value}` }),
      );
      assert.ok(info.isResource);
      assert.equal(info.name, '', value);
    }
  });
});
