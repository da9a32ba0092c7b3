import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { tempDir } from '@paddock/testing';
import { ProcessGroups } from '../src/mcp/process-group.js';
import { SessionState } from '../src/mcp/session.js';
import { ToolFailure, type ToolContext } from '../src/mcp/tool.js';
import { grepTool, listingFailures } from '../src/mcp/tools/grep.js';
import { Workspace } from '../src/workspace/containment.js';

// Grep's `type` (rg --type) and `multiline` (rg -U --multiline-dotall): how they combine with the
// other filters, and that a mistake is a clear tool error.

const removals: Array<() => Promise<void>> = [];
after(async () => {
  await Promise.all(removals.map((remove) => remove()));
});

/** A project with files of several types, one of them ignored, as the MCP server gives a tool. */
async function project(): Promise<ToolContext> {
  const temp = await tempDir('paddock-grep-');
  removals.push(temp.remove);
  const tree: Record<string, string> = {
    '.gitignore': 'dist/\n',
    'src/app.js': 'function greet() {\n  return "hello";\n}\n',
    'src/view.jsx': 'export const View = () => "hello";\n',
    'src/util.ts': 'export function greet(): string {\n  return "hello";\n}\n',
    'src/lib/test/check.py': 'def greet():\n    return "hello"\n',
    'tools/build.py': 'print("hello")\n',
    Makefile: 'hello:\n\techo hello\n',
    'notes.md': 'hello\n',
    'dist/bundle.js': 'hello from the build\n',
  };
  for (const [path, content] of Object.entries(tree)) {
    await mkdir(join(temp.path, path, '..'), { recursive: true });
    await writeFile(join(temp.path, path), content);
  }
  return {
    workspace: await Workspace.open(temp.path),
    session: new SessionState(new ProcessGroups()),
    signal: new AbortController().signal,
    childEnv: process.env,
  };
}

function grep(args: Record<string, unknown>, ctx: ToolContext): Promise<string> {
  return grepTool.run(grepTool.input.parse(args), ctx);
}

async function failsWith(promise: Promise<string>, message: RegExp): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof ToolFailure, `expected a ToolFailure, got ${String(err)}`);
    assert.match(err.message, message);
    return true;
  });
}

describe('Grep type', () => {
  test("searches only files of ripgrep's type, ignored files staying out", async () => {
    const ctx = await project();
    assert.equal(await grep({ pattern: 'hello', type: 'js' }, ctx), 'src/app.js\nsrc/view.jsx');
    assert.equal(
      await grep({ pattern: 'hello', type: 'py' }, ctx),
      'src/lib/test/check.py\ntools/build.py',
    );
    // A type of names rather than extensions.
    assert.equal(await grep({ pattern: 'hello', type: 'make' }, ctx), 'Makefile');
  });

  test('applies to every output mode and below a path', async () => {
    const ctx = await project();
    assert.equal(
      await grep({ pattern: 'hello', type: 'py', path: 'tools', output_mode: 'content' }, ctx),
      'tools/build.py:1:print("hello")',
    );
    assert.equal(
      await grep({ pattern: 'hello', type: 'ts', output_mode: 'count' }, ctx),
      'src/util.ts:1\n\n1 matching line in 1 file',
    );
  });

  test('with a glob, a file must match both', async () => {
    const ctx = await project();
    const cases: Array<[Record<string, unknown>, string]> = [
      // A name glob and a type: rg alone would search either.
      [{ glob: '*.jsx', type: 'js' }, 'src/view.jsx'],
      [{ glob: '*.ts', type: 'js' }, 'No matches found'],
      // A folder then a name.
      [{ glob: 'src/**', type: 'py' }, 'src/lib/test/check.py'],
      // A glob with a pattern in a folder name, which rg applies as an override of types.
      [{ glob: 'src/*/test/*', type: 'py' }, 'src/lib/test/check.py'],
      [{ glob: 'src/*/test/*', type: 'js' }, 'No matches found'],
      // An exclusion.
      [{ glob: '!*.jsx', type: 'js' }, 'src/app.js'],
    ];
    for (const [filters, expected] of cases) {
      assert.equal(
        await grep({ pattern: 'hello', ...filters }, ctx),
        expected,
        JSON.stringify(filters),
      );
    }
  });

  test('is not applied when path names a file, like glob', async () => {
    const ctx = await project();
    assert.equal(await grep({ pattern: 'hello', type: 'js', path: 'notes.md' }, ctx), 'notes.md');
  });

  test('an unknown type is a tool error naming the likely one, even for a file', async () => {
    const ctx = await project();
    await failsWith(
      grep({ pattern: 'hello', type: 'python' }, ctx),
      /^Unknown file type "python" for Grep's type: .*did you mean "py"\?/,
    );
    await failsWith(grep({ pattern: 'hello', type: 'jsx', path: 'notes.md' }, ctx), /"js"/);
    // rg's special "all" and the name the sandbox gives glob types are no type of the caller's.
    await failsWith(grep({ pattern: 'hello', type: 'all' }, ctx), /Unknown file type "all"/);
    await failsWith(
      grep({ pattern: 'hello', type: 'paddockglob' }, ctx),
      /Unknown file type "paddockglob"/,
    );
    await failsWith(grep({ pattern: 'hello', type: '' }, ctx), /Unknown file type ""/);
  });
});

describe('Grep multiline', () => {
  test('matches across lines, with "." matching line ends, in a folder and in a file', async () => {
    const ctx = await project();
    const pattern = 'greet\\(\\).*?return';
    assert.equal(
      await grep({ pattern, multiline: true }, ctx),
      'src/app.js\nsrc/lib/test/check.py\nsrc/util.ts',
    );
    assert.equal(
      await grep({ pattern, multiline: true, path: 'src/app.js', output_mode: 'content' }, ctx),
      'src/app.js:1:function greet() {\nsrc/app.js:2:  return "hello";',
    );
    assert.equal(
      await grep({ pattern: 'string \\{\\n\\s+return', multiline: true, type: 'ts' }, ctx),
      'src/util.ts',
    );
  });

  test('without it a match stays on one line', async () => {
    const ctx = await project();
    assert.equal(await grep({ pattern: 'greet\\(\\).*return' }, ctx), 'No matches found');
  });

  test('a pattern with \\n without it is a tool error that says to set it', async () => {
    const ctx = await project();
    for (const path of ['.', 'src/app.js']) {
      await failsWith(
        grep({ pattern: 'greet\\(\\) \\{\\n', path }, ctx),
        /^Grep failed: .*\n[\s\S]*With Grep, set multiline to true\.$/,
      );
    }
  });
});

describe('Grep listing failures', () => {
  test('are counted, never named: the listing may have crossed a swapped folder', () => {
    const cases: Array<[string, string]> = [
      ['sub/a.png: No such file or directory (os error 2)', '1 path could not be read'],
      [
        'sub/a: Permission denied (os error 13)\nsub/b: No such file or directory (os error 2)\n',
        '2 paths could not be read',
      ],
    ];
    for (const [stderr, expected] of cases) {
      const note = listingFailures(stderr);
      assert.ok(note.startsWith(expected), note);
      assert.doesNotMatch(note, /sub\//);
    }
  });
});
