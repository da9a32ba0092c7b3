import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
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
  /** Runs kubectl with `input` on its standard input. */
  const withInput = (input: string, ...args: string[]): Promise<KubectlResult> =>
    new Promise((resolve, reject) => {
      const child = spawn(
        'kubectl',
        ['--kubeconfig', kubeconfigPath, '--cache-dir', join(folder, 'cache'), ...args],
        { env: { ...process.env, HOME: folder } },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ stdout, stderr, code: code ?? -1 }));
      child.stdin.end(input);
    });
  return { kubectl, ok, manifest, withInput };
}

export type KubectlTools = ReturnType<typeof kubectlIn>;

/**
 * kubectl, ok, manifest and withInput for a test file whose cluster starts in `before`: each call
 * goes to the tools `current()` returns then.
 */
export function lateKubectl(current: () => KubectlTools): KubectlTools {
  return {
    kubectl: (...args) => current().kubectl(...args),
    ok: (...args) => current().ok(...args),
    manifest: (name, text) => current().manifest(name, text),
    withInput: (input, ...args) => current().withInput(input, ...args),
  };
}
