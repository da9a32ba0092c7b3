import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { start, tempDir } from '@paddock/testing';
import {
  findOnPath,
  missingProgramLine,
  REQUIRED_PROGRAMS,
} from '../../src/cli/required-programs.js';
import { SANDBOX_BIN } from '../support/sandbox.js';

/** The longest the sandbox may take to refuse or to serve: a bound for a loaded machine. */
const EXIT_TIMEOUT_MS = 30_000;

describe('findOnPath', () => {
  const executables = new Set(['/usr/bin/rg', '/opt/tools/rg', 'rg']);
  const isExecutable = (path: string) => executables.has(path);
  const cases: Array<[name: string, path: string | undefined, found: string | undefined]> = [
    ['finds the command in a folder of PATH', '/bin:/usr/bin', '/usr/bin/rg'],
    ['takes the first folder that has it', '/opt/tools:/usr/bin', '/opt/tools/rg'],
    ['finds nothing when no folder has it', '/bin:/sbin', undefined],
    ['reads an empty entry as the current folder, as execvp does', '/bin::/sbin', 'rg'],
    ['searches the default folders when PATH is unset', undefined, '/usr/bin/rg'],
  ];
  for (const [name, path, found] of cases) {
    test(name, () => assert.equal(findOnPath('rg', path, isExecutable), found));
  }
});

describe('paddock-sandbox without ripgrep', () => {
  let temp: { path: string; remove: () => Promise<void> };
  before(async () => {
    temp = await tempDir('paddock-no-rg-');
    await mkdir(join(temp.path, 'workspace'));
    await mkdir(join(temp.path, 'bin'));
    // A PATH folder with an rg that is not executable: not a program either.
    await writeFile(join(temp.path, 'bin', 'rg'), '#!/bin/sh\n', { mode: 0o644 });
  });
  after(() => temp?.remove());

  test('refuses to start with one line naming the missing program', async () => {
    const sandbox = start(
      process.execPath,
      [SANDBOX_BIN, '-addr', '127.0.0.1:0', '-workspace', join(temp.path, 'workspace')],
      { env: { ...process.env, PATH: join(temp.path, 'bin'), SVC_LOG_FORMAT: 'json' } },
    );
    // Either fact ends the wait: the sandbox exits (waitForOutput then rejects at once), or it
    // says it serves, which is the defect.
    const started = await sandbox.waitForOutput(/MCP server listening/, EXIT_TIMEOUT_MS).then(
      () => true,
      () => false,
    );
    if (started || (sandbox.child.exitCode === null && sandbox.child.signalCode === null)) {
      await sandbox.stop('SIGKILL');
      assert.fail(`the sandbox did not refuse to start; it printed:\n${sandbox.output()}`);
    }
    const exited = await sandbox.exited;
    assert.equal(exited.code, 1);
    assert.equal(sandbox.output(), `${missingProgramLine(REQUIRED_PROGRAMS[0]!)}\n`);
    assert.match(sandbox.output(), /ripgrep \(rg\) is not installed or not on PATH/);
  });
});

describe('the README', () => {
  test('names every program the sandbox refuses to start without, and says npm ci does not install it', async () => {
    const readme = await readFile(
      join(import.meta.dirname, '..', '..', '..', '..', 'README.md'),
      'utf8',
    );
    assert.match(readme, /`npm ci` installs only Node\.js packages/);
    for (const program of REQUIRED_PROGRAMS) {
      const row = readme
        .split('\n')
        .find((line) => line.startsWith(`| ${program.name} (\`${program.command}\`)`));
      assert.ok(row, `a row for ${program.name} in the README's table of system programs`);
    }
  });
});
