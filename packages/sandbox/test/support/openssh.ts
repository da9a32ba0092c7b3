import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * OpenSSH's own clients (ssh, scp, sftp, ssh-keygen) run against the embedded SSH server, as a
 * user would run them.
 */

/** Longest any one ssh, scp or sftp run may take before the test fails. */
export const CLIENT_TIMEOUT_MS = 20_000;

export interface Ran {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/** Runs a client program to its end (killed at the timeout), collecting its output. */
export function run(
  command: string,
  args: string[],
  options: { input?: Buffer | string; cwd?: string } = {},
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), CLIENT_TIMEOUT_MS);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(stdout), stderr });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(options.input);
  });
}

/** OpenSSH client options for a direct connection: no prompts, no known_hosts, this key only. */
export function clientOptions(key: string, logLevel = 'ERROR'): string[] {
  return [
    '-i',
    key,
    '-o',
    'StrictHostKeyChecking=no',
    '-o',
    'UserKnownHostsFile=/dev/null',
    '-o',
    'GlobalKnownHostsFile=/dev/null',
    '-o',
    'BatchMode=yes',
    '-o',
    'IdentitiesOnly=yes',
    '-o',
    `LogLevel=${logLevel}`,
    '-F',
    '/dev/null',
  ];
}

export async function keygen(
  dir: string,
  name: string,
): Promise<{ file: string; publicLine: string }> {
  const file = join(dir, name);
  const made = await run('ssh-keygen', [
    '-q',
    '-t',
    'ed25519',
    '-N',
    '',
    '-C',
    `${name}@test`,
    '-f',
    file,
  ]);
  assert.equal(made.code, 0, made.stderr);
  return { file, publicLine: (await readFile(`${file}.pub`, 'utf8')).trim() };
}

/**
 * Runs `sftp -b` with `commands` against the server on `port` as the owner of `key`. A command
 * written `-cmd` may fail without ending the batch (sftp's own convention).
 */
export async function sftpBatch(
  key: string,
  port: number,
  commands: string[],
  scratch: string,
): Promise<Ran> {
  const batch = join(scratch, `batch-${process.hrtime.bigint()}`);
  await writeFile(batch, `${commands.join('\n')}\n`);
  return run('sftp', [...clientOptions(key), '-P', String(port), '-b', batch, 'x@127.0.0.1'], {
    cwd: scratch,
  });
}
