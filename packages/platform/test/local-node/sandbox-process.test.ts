import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '@paddock/testing';
import { SandboxProcess } from '../../src/local-node/sandbox-process.js';

describe('SandboxProcess', () => {
  it('runs a pod’s program with the Node.js flags it is given, before the program', async () => {
    const dir = await tempDir('paddock-sandbox-process-');
    try {
      const bin = join(dir.path, 'print-flags.mjs');
      await writeFile(
        bin,
        'console.log(JSON.stringify([process.execArgv, process.argv.slice(2)]));\n',
      );
      const lines: string[] = [];
      const child = new SandboxProcess({
        bin,
        nodeFlags: ['--max-semi-space-size=4', '--stack-size=900'],
        args: ['-addr', '127.0.0.1:0'],
        env: {},
        cwd: dir.path,
        onLine: (line) => lines.push(line),
      });
      assert.deepEqual(await child.exited, { code: 0, signal: null });
      assert.deepEqual(
        lines.map((line) => JSON.parse(line) as unknown),
        [
          [
            ['--max-semi-space-size=4', '--stack-size=900'],
            ['-addr', '127.0.0.1:0'],
          ],
        ],
      );
    } finally {
      await dir.remove();
    }
  });
});
