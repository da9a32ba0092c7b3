import assert from 'node:assert/strict';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { tempDir } from '@paddock/testing';
import { environmentBlockOf, hiddenEntryRanges } from '../../src/process/own-environment.js';
import {
  as,
  connect,
  startApiSandbox,
  textOf,
  type RunningApiSandbox,
} from '../support/sandbox.js';

/**
 * The sandbox's own secrets are not where the commands it runs can read them: not in their
 * environment, and not in /proc/<pid>/environ or /proc/<pid>/cmdline of the sandbox or of any
 * process above them, however the bytes are encoded on the way out (the scrubber sees only text).
 */

const secret = (label: string) => `${label}-${randomBytes(12).toString('hex')}`;
const SECRETS = {
  SVC_MCP_TOKEN: secret('mcp-token'),
  DB_PASSWORD: secret('db-password'),
  GITHUB_TOKEN: secret('github-token'),
  STRIPE_SECRET_KEY: secret('stripe-key'),
  // Too short to be scrubbed from output, but hidden all the same.
  short_api_key: `k${randomBytes(3).toString('hex')}`,
};
const VALUES = Object.values(SECRETS);
/** A variable that is no secret: its presence proves that the reading worked and decoded. */
const CANARY = `canary-${randomBytes(8).toString('hex')}`;

/** The text with every base64 run in it decoded beside it. */
function decoded(text: string): string {
  const runs = text.match(/[A-Za-z0-9+/]{8,}={0,2}/g) ?? [];
  return [text, ...runs.map((run) => Buffer.from(run, 'base64').toString('latin1'))].join('\n');
}

/** Every secret value found in the text or in what its base64 runs decode to. */
function leaks(text: string): string[] {
  const all = decoded(text);
  return VALUES.filter((value) => all.includes(value));
}

/** Base64 of the environ and cmdline of the shell and of every process above it, to pid 1. */
const WALK_UP =
  'p=$$; while [ "$p" -gt 1 ] 2>/dev/null; do ' +
  'echo "pid $p"; base64 -w0 /proc/$p/environ; echo; base64 -w0 /proc/$p/cmdline; echo; ' +
  "p=$(sed 's/.*) //' /proc/$p/stat | cut -d' ' -f2); done";

let folder: { path: string; remove: () => Promise<void> };
let sandbox: RunningApiSandbox;

before(async () => {
  folder = await tempDir('paddock-secret-env-');
  sandbox = await startApiSandbox(folder.path, ['-enable-exec'], {
    ...SECRETS,
    PADDOCK_TEST_CANARY: CANARY,
  });
});

after(async () => {
  await sandbox.stop();
  await folder.remove();
});

describe("the sandbox's own environment", () => {
  it('shows none of its secrets in /proc/<pid>/environ or cmdline', async () => {
    const pid = sandbox.child.pid!;
    for (const file of ['environ', 'cmdline']) {
      const bytes = await readFile(`/proc/${pid}/${file}`);
      assert.deepEqual(leaks(bytes.toString('latin1')), [], `/proc/<sandbox>/${file}`);
    }
  });

  it('still serves with its secrets: the MCP token is required', async () => {
    await assert.rejects(connect(sandbox.base, 'streamable'));
    const client = await connect(sandbox.base, 'streamable', {
      authorization: `Bearer ${SECRETS.SVC_MCP_TOKEN}`,
    });
    await client.close();
  });
});

describe('a Bash command', () => {
  const readings: Record<string, string> = {
    'base64 of its parent environ': 'base64 -w0 /proc/$PPID/environ',
    'base64 of the environ of the sandbox by pid': '', // filled in with the pid below
    'tr of its parent environ, encoded': "tr '\\0' '\\n' < /proc/$PPID/environ | base64 -w0",
    'its own environment': 'env | base64 -w0',
    'the environ and cmdline of every process above it': WALK_UP,
  };
  for (const [what, command] of Object.entries(readings)) {
    it(`cannot read the secrets through ${what}`, async () => {
      const line = command || `cat /proc/${sandbox.child.pid}/environ | base64 -w0`;
      const client = await connect(sandbox.base, 'streamable', {
        authorization: `Bearer ${SECRETS.SVC_MCP_TOKEN}`,
      });
      try {
        const output = textOf(
          await client.callTool({ name: 'Bash', arguments: { command: line } }),
        );
        assert.match(output, /exit code: 0/);
        assert.ok(decoded(output).includes(CANARY), `the reading worked: ${output}`);
        assert.deepEqual(leaks(output), [], output);
      } finally {
        await client.close();
      }
    });
  }
});

describe('a terminal', () => {
  it('cannot read the secrets in the environ of any process above it', async () => {
    const url = new URL('/api/exec', sandbox.apiBase.replace(/^http/, 'ws'));
    url.searchParams.set('command', WALK_UP);
    const ws = new WebSocket(url, { headers: as('alice') });
    const chunks: Buffer[] = [];
    ws.on('message', (data: Buffer, isBinary) => {
      if (isBinary) chunks.push(data);
    });
    await once(ws, 'close');
    const output = Buffer.concat(chunks).toString('utf8');
    assert.match(output, new RegExp(`pid ${sandbox.child.pid}\\b`), output);
    assert.ok(decoded(output).includes(CANARY), `the reading worked: ${output}`);
    assert.deepEqual(leaks(output), [], output);
  });
});

describe('the environment block', () => {
  it('finds the entries of secret variables, names included', () => {
    const block = Buffer.from('PATH=/bin\0DB_PASSWORD=x=y\0HOME=/root\0SVC_MCP_TOKEN=t\0A=\0');
    const found = hiddenEntryRanges(block).map(([from, to]) => block.subarray(from, to).toString());
    assert.deepEqual(found, ['DB_PASSWORD=x=y', 'SVC_MCP_TOKEN=t']);
    assert.deepEqual(hiddenEntryRanges(Buffer.from('PATH=/bin\0')), []);
    assert.deepEqual(hiddenEntryRanges(Buffer.from('')), []);
    // An entry without a terminating NUL at the end of the block still counts.
    assert.deepEqual(hiddenEntryRanges(Buffer.from('A=1\0MY_TOKEN=abc')), [[4, 16]]);
  });

  it('is located from fields 50 and 51 of a stat line, whatever the command name holds', () => {
    const fields = Array.from({ length: 52 }, (_, i) => String(i + 1));
    const stat = `1234 (we ird) name) ${fields.slice(2).join(' ')}`;
    assert.deepEqual(environmentBlockOf(stat), [50, 51]);
    assert.throws(() => environmentBlockOf('1234 (short) S 1'), /does not show/);
  });
});
