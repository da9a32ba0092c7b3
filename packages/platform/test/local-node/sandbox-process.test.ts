import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PER_AGENT_NODE_FLAGS } from '@paddock/common';
import { tempDir } from '@paddock/testing';
import { SandboxProcess } from '../../src/local-node/sandbox-process.js';

describe('SandboxProcess', () => {
  it('runs a pod’s program with the per-agent Node.js flags, as the image’s entrypoint does', async () => {
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
        args: ['-addr', '127.0.0.1:0'],
        env: {},
        cwd: dir.path,
        onLine: (line) => lines.push(line),
      });
      assert.deepEqual(await child.exited, { code: 0, signal: null });
      assert.deepEqual(
        lines.map((line) => JSON.parse(line) as unknown),
        [[[...PER_AGENT_NODE_FLAGS], ['-addr', '127.0.0.1:0']]],
      );
    } finally {
      await dir.remove();
    }
  });
});
