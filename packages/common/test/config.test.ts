import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, env, loadConfig } from '@paddock/common';

const shape = {
  SVC_NAME: env.string('paddock'),
  SVC_OPTIONAL: env.string(),
  SVC_ENABLED: env.boolean(true),
  SVC_COUNT: env.integer(10, { min: 0, max: 100 }),
  SVC_MODE: env.oneOf(['a', 'b'] as const, 'a', { alias_b: 'b' }),
  SVC_GROUPS: env.list(),
  SVC_LISTEN_ADDR: env.address('127.0.0.1:3000'),
  SVC_BASE_URL: env.url(),
};

describe('configuration from SVC_* variables', () => {
  it('applies every default when nothing is set', () => {
    const config = loadConfig(shape, {});
    assert.deepEqual(
      { ...config, SVC_BASE_URL: config.SVC_BASE_URL?.href },
      {
        SVC_NAME: 'paddock',
        SVC_OPTIONAL: undefined,
        SVC_ENABLED: true,
        SVC_COUNT: 10,
        SVC_MODE: 'a',
        SVC_GROUPS: [],
        SVC_LISTEN_ADDR: { host: '127.0.0.1', port: 3000 },
        SVC_BASE_URL: undefined,
      },
    );
  });

  it('parses values of every shape, aliases and empty strings included', () => {
    const config = loadConfig(shape, {
      SVC_NAME: '',
      SVC_ENABLED: 'FALSE',
      SVC_COUNT: '42',
      SVC_MODE: 'alias_b',
      SVC_GROUPS: ' admins, ,devs ',
      SVC_LISTEN_ADDR: '[::1]:8080',
      SVC_BASE_URL: 'https://paddock.example/',
    });
    assert.equal(config.SVC_NAME, 'paddock');
    assert.equal(config.SVC_ENABLED, false);
    assert.equal(config.SVC_COUNT, 42);
    assert.equal(config.SVC_MODE, 'b');
    assert.deepEqual(config.SVC_GROUPS, ['admins', 'devs']);
    assert.deepEqual(config.SVC_LISTEN_ADDR, { host: '::1', port: 8080 });
    assert.equal(config.SVC_BASE_URL?.origin, 'https://paddock.example');
  });

  it('reports every problem at once, each naming its variable', () => {
    const err = captureConfigError(() =>
      loadConfig(shape, {
        SVC_ENABLED: 'maybe',
        SVC_COUNT: '1000',
        SVC_MODE: 'c',
        SVC_LISTEN_ADDR: 'localhost',
        SVC_BASE_URL: 'ftp://x',
      }),
    );
    assert.deepEqual(err.problems, [
      'SVC_ENABLED: "maybe" is not a boolean (use true or false)',
      'SVC_COUNT: 1000 is above 100',
      'SVC_MODE: "c" is not one of a, b',
      'SVC_LISTEN_ADDR: "localhost" is not an address of the form host:port',
      'SVC_BASE_URL: "ftp://x" is not an http or https URL',
    ]);
    assert.match(err.message, /invalid configuration:\n {2}- SVC_ENABLED/);
  });

  it('runs cross-variable checks only on values that parsed', () => {
    const err = captureConfigError(() =>
      loadConfig(shape, { SVC_MODE: 'b' }, (config, problem) => {
        if (config.SVC_MODE === 'b' && !config.SVC_BASE_URL)
          problem('SVC_BASE_URL is required in mode b');
      }),
    );
    assert.deepEqual(err.problems, ['SVC_BASE_URL is required in mode b']);
  });

  it('rejects a number with trailing text', () => {
    const err = captureConfigError(() => loadConfig(shape, { SVC_COUNT: '12abc' }));
    assert.deepEqual(err.problems, ['SVC_COUNT: "12abc" is not a whole number']);
  });
});

function captureConfigError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    return err;
  }
  assert.fail('expected a ConfigError');
}
