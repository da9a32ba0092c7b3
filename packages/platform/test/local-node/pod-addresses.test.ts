import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UsageError } from '@paddock/common';
import { parsePodAddresses } from '../../src/local-node-command.js';
import {
  allocateAddress,
  DEFAULT_POD_ADDRESSES,
  podListenArg,
  type AddressRange,
} from '../../src/local-node/pod-addresses.js';

describe('a pod’s loopback address', () => {
  const small: AddressRange = { first: '127.9.0.253', count: 6 };
  const cases: {
    name: string;
    taken: string[];
    range?: AddressRange;
    preferred?: (string | undefined)[];
    want: string | undefined;
  }[] = [
    { name: 'the first of the range when none is taken', taken: [], want: '127.1.0.1' },
    { name: 'the lowest free one', taken: ['127.1.0.1', '127.1.0.3'], want: '127.1.0.2' },
    {
      name: 'the pod’s own from before (its status, or its name’s last pod)',
      taken: ['127.1.0.1'],
      preferred: [undefined, '127.1.0.9'],
      want: '127.1.0.9',
    },
    {
      name: 'not its own from before when another pod has it now',
      taken: ['127.1.0.1', '127.1.0.9'],
      preferred: ['127.1.0.9'],
      want: '127.1.0.2',
    },
    {
      name: 'not a preferred one outside the range (127.0.0.1 is the platform’s)',
      taken: [],
      preferred: ['127.0.0.1', '10.0.0.4'],
      want: '127.1.0.1',
    },
    {
      name: 'never one ending in .0 or .255',
      taken: ['127.9.0.253', '127.9.0.254'],
      range: small,
      want: '127.9.1.1',
    },
    {
      name: 'none when the range is full',
      taken: ['127.9.0.253', '127.9.0.254', '127.9.1.1', '127.9.1.2'],
      range: small,
      want: undefined,
    },
  ];
  for (const c of cases) {
    it(`is ${c.name}`, () =>
      assert.equal(
        allocateAddress(new Set(c.taken), c.range ?? DEFAULT_POD_ADDRESSES, c.preferred),
        c.want,
      ));
  }

  it('is never one another live pod has, however many pods', () => {
    const taken = new Set<string>();
    for (let i = 0; i < 600; i++) {
      const address = allocateAddress(taken, DEFAULT_POD_ADDRESSES)!;
      assert.ok(!taken.has(address));
      taken.add(address);
    }
    assert.ok(taken.has('127.1.2.89') && !taken.has('127.1.1.0') && !taken.has('127.1.1.255'));
  });
});

describe('a listen address in the args', () => {
  const cases: [string, string][] = [
    ['0.0.0.0:7070', '127.1.0.4:7070'],
    ['[::]:7071', '127.1.0.4:7071'],
    ['-addr=0.0.0.0:8080', '-addr=127.1.0.4:8080'],
    ['127.0.0.1:7070', '127.0.0.1:7070'],
    [':7070', ':7070'],
    ['0.0.0.0', '0.0.0.0'],
    ['http://0.0.0.0:7070', 'http://0.0.0.0:7070'],
    ['-workspace', '-workspace'],
  ];
  for (const [arg, want] of cases) {
    it(`${arg} → ${want}`, () => assert.equal(podListenArg(arg, '127.1.0.4'), want));
  }
});

describe('the --pod-addresses option of paddock node', () => {
  it('takes FIRST, or FIRST/COUNT, in 127.0.0.0/8', () => {
    assert.deepEqual(parsePodAddresses('127.42.0.1'), { first: '127.42.0.1', count: 65_535 });
    assert.deepEqual(parsePodAddresses('127.42.0.1/1000'), { first: '127.42.0.1', count: 1000 });
  });
  for (const bad of [
    '10.0.0.1',
    '127.42.0.0',
    '127.42.0.1/0',
    '127.42.0.1/x',
    '127.42.0.1/5/6',
    '',
  ]) {
    it(`refuses "${bad}"`, () => assert.throws(() => parsePodAddresses(bad), UsageError));
  }
});
