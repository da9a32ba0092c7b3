import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatAddress, httpUrl, parseAddress } from '@paddock/common';

describe('listen addresses', () => {
  const cases: Array<[string, ReturnType<typeof parseAddress>]> = [
    ['127.0.0.1:3000', { host: '127.0.0.1', port: 3000 }],
    ['localhost:0', { host: 'localhost', port: 0 }],
    [':8080', { host: '0.0.0.0', port: 8080 }],
    ['[::1]:443', { host: '::1', port: 443 }],
    ['127.0.0.1:70000', { error: 'port 70000 in "127.0.0.1:70000" is out of range (0-65535)' }],
    ['127.0.0.1', { error: '"127.0.0.1" is not an address of the form host:port' }],
    ['::1:80', { error: '"::1:80" is not an address of the form host:port' }],
    ['host:port', { error: '"host:port" is not an address of the form host:port' }],
    ['', { error: '"" is not an address of the form host:port' }],
  ];
  for (const [text, expected] of cases) {
    it(`reads "${text}"`, () => assert.deepEqual(parseAddress(text), expected));
  }

  it('writes IPv6 hosts in brackets and shows the unspecified host as loopback in URLs', () => {
    assert.equal(formatAddress({ host: '::1', port: 80 }), '[::1]:80');
    assert.equal(httpUrl({ host: '0.0.0.0', port: 80 }, '/x'), 'http://127.0.0.1:80/x');
    assert.equal(httpUrl({ host: '::', port: 81 }), 'http://[::1]:81');
  });
});
