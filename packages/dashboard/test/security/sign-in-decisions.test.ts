import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientAddress, MAX_FORWARDED_HOPS } from '../../src/builtin/client-address.js';
import {
  accountKey,
  attackKey,
  attemptsPerSource,
  ATTEMPTS_UNDER_ATTACK,
  pairKey,
} from '../../src/builtin/sign-in-throttle.js';
import { perMinute } from '../../src/builtin/source-limits.js';
import { fullBucket, take, type BucketState } from '../../src/builtin/token-bucket.js';
import { lockLengths } from '../../src/store/login-failures.js';

describe('the token bucket', () => {
  const rule = { capacity: 3, refillMs: 1_000 };
  const cases: Array<{
    name: string;
    state: BucketState;
    now: number;
    allowed: boolean;
    retry?: number;
  }> = [
    { name: 'a full bucket allows', state: fullBucket(rule, 0), now: 0, allowed: true },
    {
      name: 'an empty one refuses until a token grows',
      state: { tokens: 0, at: 0 },
      now: 250,
      allowed: false,
      retry: 750,
    },
    {
      name: 'a token grows back in refillMs',
      state: { tokens: 0, at: 0 },
      now: 1_000,
      allowed: true,
    },
    { name: 'never above capacity', state: { tokens: 3, at: 0 }, now: 1e9, allowed: true },
    {
      name: 'a clock going back adds nothing',
      state: { tokens: 0.5, at: 1_000 },
      now: 0,
      allowed: false,
      retry: 500,
    },
  ];
  for (const { name, state, now, allowed, retry } of cases) {
    it(name, () => {
      const decision = take(state, rule, now);
      assert.equal(decision.allowed, allowed);
      if (!decision.allowed) assert.equal(decision.retryAfterMs, retry);
      assert.ok(decision.state.tokens <= rule.capacity);
    });
  }

  it('allows exactly the burst, then one per refill', () => {
    let state = fullBucket(perMinute(10), 0);
    const allowed: boolean[] = [];
    for (let i = 0; i < 12; i++) {
      const decision = take(state, perMinute(10), 0);
      allowed.push(decision.allowed);
      state = decision.state;
    }
    assert.deepEqual(allowed, [...Array<boolean>(10).fill(true), false, false]);
    assert.equal(take(state, perMinute(10), 6_000).allowed, true);
  });
});

describe('the client address of a request', () => {
  const proxies = new Set(['10.0.0.1', '10.0.0.2']);
  const trusted = (a: string) => proxies.has(a);
  const none = () => false;
  const cases: Array<
    [string, string | undefined, string | string[] | undefined, (a: string) => boolean, string]
  > = [
    ['the peer without trusted proxies', '203.0.113.9', '198.51.100.1', none, '203.0.113.9'],
    [
      'the peer when it is not a trusted proxy',
      '203.0.113.9',
      '198.51.100.1',
      trusted,
      '203.0.113.9',
    ],
    [
      'the forwarded client behind a trusted proxy',
      '10.0.0.1',
      '198.51.100.1',
      trusted,
      '198.51.100.1',
    ],
    [
      'the right-most untrusted hop (spoofed left part ignored)',
      '10.0.0.1',
      '1.1.1.1, 198.51.100.1, 10.0.0.2',
      trusted,
      '198.51.100.1',
    ],
    [
      'repeated headers read as one list',
      '10.0.0.1',
      ['1.1.1.1', '198.51.100.7'],
      trusted,
      '198.51.100.7',
    ],
    [
      'the last good hop before garbage',
      '10.0.0.1',
      'garbage, 198.51.100.1',
      trusted,
      '198.51.100.1',
    ],
    [
      'the proxy itself when the header is garbage',
      '10.0.0.1',
      'not-an-address',
      trusted,
      '10.0.0.1',
    ],
    ['the proxy itself without the header', '10.0.0.1', undefined, trusted, '10.0.0.1'],
    ['IPv4-mapped IPv6 as IPv4', '::ffff:203.0.113.9', undefined, none, '203.0.113.9'],
    ['an unknown peer', undefined, undefined, none, 'unknown'],
  ];
  for (const [name, peer, header, isTrusted, expected] of cases) {
    it(name, () => assert.equal(clientAddress(peer, header, isTrusted), expected));
  }

  it(`reads at most ${MAX_FORWARDED_HOPS} hops`, () => {
    const hops = Array.from({ length: 100 }, () => '10.0.0.2').join(',');
    assert.equal(clientAddress('10.0.0.1', `198.51.100.1,${hops}`, trusted), '10.0.0.2');
  });
});

describe('sign-in throttling decisions', () => {
  it('keys failures by account and source, unknown identifiers by their lower-cased text', () => {
    assert.equal(accountKey('u-1', 'Ann'), 'user:u-1');
    assert.equal(accountKey(undefined, 'Ghost'), 'login:ghost');
    assert.equal(pairKey('user:u-1', '203.0.113.9'), 'user:u-1|src:203.0.113.9');
    assert.equal(attackKey('user:u-1'), 'attack:user:u-1');
  });

  const attempts: Array<[number, boolean, number]> = [
    [5, false, 5],
    [5, true, ATTEMPTS_UNDER_ATTACK],
    [1, true, 1],
  ];
  for (const [max, underAttack, expected] of attempts) {
    it(`allows ${expected} attempts per source with a maximum of ${max}${underAttack ? ' under attack' : ''}`, () => {
      assert.equal(attemptsPerSource(max, underAttack), expected);
    });
  }

  const lengths: Array<[string, number[], Parameters<typeof lockLengths>]> = [
    ['without backoff, always the lockout', [900], [900]],
    [
      'doubling up to the maximum',
      [900, 1800, 3600, 4000],
      [900, { maxLockoutMs: 4000, memoryMs: 1 }],
    ],
    ['a lockout above the maximum is cut to it', [100], [200, { maxLockoutMs: 100, memoryMs: 1 }]],
  ];
  for (const [name, expected, args] of lengths) {
    it(`lock lengths: ${name}`, () => assert.deepEqual(lockLengths(...args), expected));
  }
});
