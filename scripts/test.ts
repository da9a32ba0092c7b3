// Runs the test suite: checks the system programs the tests need (installing them when it may),
// then every packages/*/test/**/*.test.ts file with node's test runner, from TypeScript sources.
// Arguments narrow the run to files or folders: `npm test -- packages/common`.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { ensurePrerequisites } from '@paddock/testing';

const root = resolve(import.meta.dirname, '..');

function testFiles(dir: string): string[] {
  const stat = statSync(dir, { throwIfNoEntry: false });
  if (!stat) return [];
  if (stat.isFile()) return dir.endsWith('.test.ts') ? [dir] : [];
  return (
    readdirSync(dir, { withFileTypes: true })
      // Links are not followed: a workspace link would walk into itself.
      .filter((e) => !e.isSymbolicLink() && !['node_modules', 'dist', 'fixtures'].includes(e.name))
      .flatMap((e) => testFiles(join(dir, e.name)))
  );
}

const args = process.argv.slice(2);
const targets = args.length > 0 ? args.map((a) => resolve(a)) : [join(root, 'packages')];
const files = targets.flatMap(testFiles).sort();
if (files.length === 0) {
  console.error(`no test files under ${targets.map((t) => relative(root, t)).join(', ')}`);
  process.exit(1);
}

const prerequisites = ensurePrerequisites((line) => console.log(line));
if (!prerequisites.ok) {
  console.error(prerequisites.instruction);
  process.exit(1);
}

const child = spawn(
  process.execPath,
  [
    '--conditions=paddock-source',
    '--import',
    'tsx',
    '--test',
    '--test-reporter=spec',
    `--test-concurrency=${Math.max(2, availableParallelism())}`,
    '--test-timeout=300000',
    ...files.map((f) => relative(root, f)),
  ],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, SVC_LOG_FORMAT: process.env.SVC_LOG_FORMAT ?? 'json' },
  },
);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
