import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { toolAnnotations, type ToolFacts } from '../src/mcp/annotations.js';
import { agentInputSchema } from '../src/mcp/input-schema.js';
import { serverInstructions } from '../src/mcp/instructions.js';
import { TOOLS } from '../src/mcp/tools/index.js';
import { parseTypeList, suggestTypes } from '../src/mcp/tools/file-types.js';

describe('toolAnnotations', () => {
  const cases: Array<{ facts: ToolFacts; expected: Record<string, unknown> }> = [
    {
      facts: { title: 'Read file', effect: 'reads', idempotent: false, openWorld: false },
      // A read-only tool changes nothing, so a repeated call changes nothing more either.
      expected: {
        title: 'Read file',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    {
      facts: { title: 'Append', effect: 'adds', idempotent: false, openWorld: false },
      expected: {
        title: 'Append',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    {
      facts: { title: 'Write file', effect: 'destroys', idempotent: true, openWorld: false },
      expected: {
        title: 'Write file',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    {
      facts: { title: 'Run command', effect: 'destroys', idempotent: false, openWorld: true },
      expected: {
        title: 'Run command',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
  ];
  for (const { facts, expected } of cases) {
    it(`states every hint of a tool that ${facts.effect}${facts.openWorld ? ' beyond the workspace' : ''}`, () => {
      assert.deepEqual(toolAnnotations(facts), expected);
    });
  }

  it('gives every tool of the sandbox a title and all four hints', () => {
    for (const tool of TOOLS) {
      const a = tool.annotations;
      assert.ok(a?.title, `${tool.name} has a title`);
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']) {
        assert.equal(
          typeof (a as Record<string, unknown>)[hint],
          'boolean',
          `${tool.name} ${hint}`,
        );
      }
    }
  });
});

describe('serverInstructions', () => {
  const cases = [
    { root: '/srv/workspace', line: 'Workspace root: /srv/workspace' },
    { root: '/home/ana/my project', line: 'Workspace root: /home/ana/my project' },
    { root: '/', line: 'Workspace root: /' },
  ];
  for (const { root, line } of cases) {
    it(`names the root ${JSON.stringify(root)} on a line of its own`, () => {
      const lines = serverInstructions({ root }).split('\n');
      assert.ok(lines.includes(line), lines.join('\n'));
    });
  }

  const text = serverInstructions({ root: '/srv/workspace' });
  const claims: Array<[string, RegExp]> = [
    [
      'paths are relative to the root or absolute inside it',
      /relative to the workspace root .*absolute inside it/,
    ],
    [
      'each Bash call starts in the root, cd does not carry over',
      /every call runs a new `bash -c` that starts in the workspace root.*a `cd` .* does not carry over/,
    ],
    ['the Bash timeouts', /killed after 120 s .*at most 600 s/],
    [
      'how a redacted value looks',
      /\[REDACTED:<kind>\], e\.g\. "DB_PASSWORD=\[REDACTED:secret-assignment\]"/,
    ],
    ['that Write and Edit need a Read first', /only after Read has read it in this session/],
    ['how to get the rest of a cut result', /offset and limit.*path, glob, type or head_limit/],
  ];
  for (const [what, pattern] of claims) {
    it(`says ${what}`, () => {
      assert.match(text, pattern);
    });
  }

  it('stays a few lines', () => {
    assert.ok(text.split('\n').length <= 8, text);
    assert.ok(text.length < 2000, `${text.length} characters`);
  });
});

describe('agentInputSchema', () => {
  const cases: Array<{ name: string; input: z.ZodObject; expected: Record<string, unknown> }> = [
    {
      name: 'drops $schema and the bounds zod adds to every integer',
      input: z.object({ n: z.number().int() }),
      expected: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
    },
    {
      name: 'keeps the bounds a tool states itself',
      input: z.object({ n: z.number().int().min(1).max(600_000).optional() }),
      expected: {
        type: 'object',
        properties: { n: { type: 'integer', minimum: 1, maximum: 600_000 } },
      },
    },
    {
      name: 'cleans nested schemas too',
      input: z.object({ list: z.array(z.object({ at: z.number().int().min(0) })) }),
      expected: {
        type: 'object',
        properties: {
          list: {
            type: 'array',
            items: {
              type: 'object',
              properties: { at: { type: 'integer', minimum: 0 } },
              required: ['at'],
            },
          },
        },
        required: ['list'],
      },
    },
    {
      name: 'keeps defaults and descriptions',
      input: z.object({ mode: z.enum(['a', 'b']).default('a').describe('The mode.') }),
      expected: {
        type: 'object',
        properties: {
          mode: { type: 'string', enum: ['a', 'b'], default: 'a', description: 'The mode.' },
        },
      },
    },
  ];
  for (const { name, input, expected } of cases) {
    it(name, () => {
      assert.deepEqual(agentInputSchema(input), expected);
    });
  }
});

describe("ripgrep's file types", () => {
  const listed = [
    'c: *.[chH], *.[chH].in, *.cats',
    'js: *.js, *.jsx, *.vue',
    'make: *.mak, *.mk, [Mm]akefile',
    'py: *.py',
    'ts: *.ts, *.tsx',
    'not a type line',
    '',
  ].join('\n');
  const types = parseTypeList(listed);

  it('parses `rg --type-list`, skipping lines of another shape', () => {
    assert.deepEqual(
      [...types],
      [
        ['c', ['*.[chH]', '*.[chH].in', '*.cats']],
        ['js', ['*.js', '*.jsx', '*.vue']],
        ['make', ['*.mak', '*.mk', '[Mm]akefile']],
        ['py', ['*.py']],
        ['ts', ['*.ts', '*.tsx']],
      ],
    );
  });

  const suggestions: Array<[string, string[]]> = [
    ['python', ['py']],
    ['jsx', ['js']],
    ['tsx', ['ts']],
    ['mk', ['make']],
    ['cobol', []],
    ['pyth', ['py']],
    ['haskell', []],
  ];
  for (const [name, expected] of suggestions) {
    it(`suggests ${JSON.stringify(expected)} for "${name}"`, () => {
      assert.deepEqual(suggestTypes(types, name), expected);
    });
  }
});
