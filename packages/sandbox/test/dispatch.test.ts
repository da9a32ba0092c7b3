import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { createLogger } from '@paddock/common';
import { z } from 'zod';
import { callTool, ToolSet } from '../src/mcp/dispatch.js';
import { ProcessGroups } from '../src/mcp/process-group.js';
import { SessionState } from '../src/mcp/session.js';
import { defineTool, type ToolContext } from '../src/mcp/tool.js';
import { Scrubber } from '@paddock/common/scrub';
import { Workspace } from '../src/workspace/containment.js';
import { tempDir } from '@paddock/testing';

const SECRET = 'hunter2-the-configured-secret';

/** A tool whose fault is not the caller's: it throws a plain Error carrying a secret. */
const faulty = defineTool({
  name: 'Faulty',
  description: 'throws',
  input: z.object({}),
  run: () => Promise.reject(new Error(`disk on fire near ${SECRET}`)),
});

async function harness() {
  const dir = await tempDir();
  const lines: Array<Record<string, unknown>> = [];
  const out = new PassThrough();
  out.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean))
      lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  const logger = createLogger({ name: 'test', format: 'json', level: 'info', destination: out });
  const scrubber = new Scrubber({ secrets: [SECRET], extraPatterns: [] });
  const ctx: ToolContext = {
    workspace: await Workspace.open(dir.path),
    session: new SessionState(new ProcessGroups()),
    signal: new AbortController().signal,
    childEnv: {},
  };
  const options = {
    tools: new ToolSet([faulty]),
    ctx,
    scrub: (text: string) => scrubber.scrub(text),
    logger,
  };
  return { dir, lines, options };
}

describe('tools/call dispatch', () => {
  it('turns a tool fault into a JSON-RPC internal error with a scrubbed message, and logs the call', async () => {
    const { dir, lines, options } = await harness();
    try {
      const failure = await callTool('Faulty', {}, options).then(
        () => assert.fail('a faulty tool must not produce a result'),
        (err: unknown) => err,
      );
      assert.ok(failure instanceof McpError);
      assert.equal(failure.code, ErrorCode.InternalError);
      assert.equal(failure.code, -32603);
      assert.match(
        failure.message,
        /Faulty failed: disk on fire near \[REDACTED:configured-secret\]/,
      );
      assert.doesNotMatch(failure.message, new RegExp(SECRET));
      await new Promise((r) => setImmediate(r));
      const call = lines.find((l) => l.msg === 'tool call');
      assert.deepEqual(
        { tool: call?.tool, isError: call?.isError, bytes: call?.bytes },
        { tool: 'Faulty', isError: true, bytes: 0 },
      );
      assert.ok(lines.some((l) => l.msg === 'tool failed'));
      assert.ok(!JSON.stringify(lines).includes(SECRET), 'no log line holds the secret');
    } finally {
      await dir.remove();
    }
  });

  it('answers an unknown tool with invalid params and still logs one line for it', async () => {
    const { dir, lines, options } = await harness();
    try {
      const failure = await callTool('Nope', {}, options).catch((err: unknown) => err);
      assert.ok(failure instanceof McpError);
      assert.equal(failure.code, ErrorCode.InvalidParams);
      await new Promise((r) => setImmediate(r));
      assert.equal(lines.filter((l) => l.msg === 'tool call' && l.tool === 'Nope').length, 1);
      assert.ok(!lines.some((l) => l.msg === 'tool failed'), 'a client mistake is not a fault');
    } finally {
      await dir.remove();
    }
  });
});
