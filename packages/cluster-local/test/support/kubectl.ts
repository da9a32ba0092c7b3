import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface KubectlResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** kubectl against the kubeconfig a test cluster wrote, with its home and cache in `folder`. */
export function kubectlIn(folder: string, kubeconfigPath: string) {
  const kubectl = async (...args: string[]): Promise<KubectlResult> => {
    try {
      const { stdout, stderr } = await run(
        'kubectl',
        ['--kubeconfig', kubeconfigPath, '--cache-dir', join(folder, 'cache'), ...args],
        { env: { ...process.env, HOME: folder } },
      );
      return { stdout, stderr, code: 0 };
    } catch (err) {
      const failed = err as KubectlResult;
      return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
    }
  };
  /** Runs kubectl and fails the test unless it succeeds; resolves with its output. */
  const ok = async (...args: string[]): Promise<string> => {
    const result = await kubectl(...args);
    assert.equal(result.code, 0, `kubectl ${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  };
  /** Writes a manifest into the folder; resolves with its path. */
  const manifest = async (name: string, text: string): Promise<string> => {
    const file = join(folder, name);
    await writeFile(file, text);
    return file;
  };
  return { kubectl, ok, manifest };
}
