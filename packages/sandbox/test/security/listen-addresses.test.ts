import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { UsageError } from '@paddock/common';
import { start, tempDir } from '@paddock/testing';
import { isLoopbackHost, mcpExposure, parseFlags } from '../../src/cli/flags.js';
import { SANDBOX_BIN } from '../support/sandbox.js';

/** Runs paddock-sandbox with `args` until it exits or prints `listening`; stops it in the latter case. */
async function startCommand(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  const child = start(process.execPath, [SANDBOX_BIN, ...args], {
    env: { ...process.env, SVC_LOG_FORMAT: 'json', SVC_MCP_TOKEN: '', ...env },
  });
  const exited = child.exited.then(({ code }) => ({ code }));
  // waitForOutput rejects when the process exits first: the exit is then the outcome.
  const outcome = await child.waitForOutput(/MCP server listening/, 30_000).then(
    () => undefined,
    () => exited,
  );
  if (outcome) return { code: outcome.code, output: child.output() };
  await child.stop();
  return { code: null, output: child.output() };
}

describe('which hosts are loopback', () => {
  const table: Array<[string, boolean]> = [
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['localhost', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['0.0.0.0', false],
    ['::', false],
    ['10.0.0.5', false],
    ['sandbox.example.com', false],
    ['127.0.0.1.example.com', false],
  ];
  for (const [host, loopback] of table) {
    it(`${host} is ${loopback ? '' : 'not '}loopback`, () => {
      assert.equal(isLoopbackHost(host), loopback);
    });
  }
});

describe('the listen rules, as decisions', () => {
  it('refuses -dev-mode with a non-loopback -api-addr', () => {
    for (const apiAddr of ['0.0.0.0:7071', ':7071', '10.1.2.3:7071', '[::]:7071']) {
      assert.throws(
        () =>
          parseFlags([
            '-addr',
            '127.0.0.1:1',
            '-workspace',
            '/w',
            '-api-addr',
            apiAddr,
            '-dev-mode',
          ]),
        (err: unknown) => err instanceof UsageError && /^-dev-mode is refused/.test(err.message),
        apiAddr,
      );
    }
    const fine = parseFlags([
      '-addr',
      ':1',
      '-workspace',
      '/w',
      '-api-addr',
      '127.0.0.1:2',
      '-dev-mode',
    ]);
    assert.ok('flags' in fine && fine.flags.devMode);
  });

  it('refuses MCP beyond loopback without a token unless explicitly allowed, then warns', () => {
    const beyond = { host: '0.0.0.0', port: 7070 };
    const loop = { host: '127.0.0.1', port: 7070 };
    assert.equal(mcpExposure({ addr: loop, allowUnauthenticatedMcp: false }, false).outcome, 'ok');
    assert.equal(mcpExposure({ addr: beyond, allowUnauthenticatedMcp: false }, true).outcome, 'ok');
    assert.equal(
      mcpExposure({ addr: beyond, allowUnauthenticatedMcp: false }, false).outcome,
      'refuse',
    );
    assert.equal(
      mcpExposure({ addr: beyond, allowUnauthenticatedMcp: true }, false).outcome,
      'warn',
    );
  });
});

describe('the real command', () => {
  let folder: { path: string; remove: () => Promise<void> };
  before(async () => {
    folder = await tempDir('paddock-listen-');
  });
  after(() => folder.remove());

  it('exits 2 with one clear line for -dev-mode on a non-loopback -api-addr', async () => {
    const { code, output } = await startCommand([
      '-addr',
      '127.0.0.1:0',
      '-api-addr',
      '0.0.0.0:0',
      '-dev-mode',
      '-workspace',
      folder.path,
    ]);
    assert.equal(code, 2);
    assert.match(
      output,
      /^error: -dev-mode is refused with -api-addr 0\.0\.0\.0:0: .*loopback only/m,
    );
    assert.doesNotMatch(output, /listening/);
  });

  it('exits 2 for an MCP listener beyond loopback without SVC_MCP_TOKEN', async () => {
    const { code, output } = await startCommand(['-addr', '0.0.0.0:0', '-workspace', folder.path]);
    assert.equal(code, 2);
    assert.match(
      output,
      /^error: -addr 0\.0\.0\.0:0 is not loopback and SVC_MCP_TOKEN is not set/m,
    );
  });

  it('starts with -allow-unauthenticated-mcp and says so loudly', async () => {
    const { code, output } = await startCommand([
      '-addr',
      '0.0.0.0:0',
      '-allow-unauthenticated-mcp',
      '-workspace',
      folder.path,
    ]);
    assert.equal(code, null, output);
    assert.match(output, /"level":"?(40|warn)"?.*UNAUTHENTICATED MCP: -addr 0\.0\.0\.0:0/);
  });

  it('starts beyond loopback with SVC_MCP_TOKEN, and on loopback without it, silently', async () => {
    for (const [addr, env] of [
      ['0.0.0.0:0', { SVC_MCP_TOKEN: 'a-token-for-the-listen-test' }],
      ['127.0.0.1:0', {}],
    ] as const) {
      const { code, output } = await startCommand(['-addr', addr, '-workspace', folder.path], env);
      assert.equal(code, null, output);
      assert.doesNotMatch(output, /UNAUTHENTICATED/);
    }
  });
});
