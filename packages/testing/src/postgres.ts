import { execFile, spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './ports.js';
import { postgresBinDir } from './prerequisites.js';
import { tempDir } from './temp.js';

const execFileAsync = promisify(execFile);

/** A throwaway PostgreSQL server and the URL of an empty database on it. */
export interface StartedPostgres {
  /** postgres://paddock@127.0.0.1:<port>/paddock, trusted without a password. */
  url: string;
  /** Stops the server at once and removes its folder. */
  stop(): Promise<void>;
}

const DATABASE = 'paddock';
const START_ATTEMPTS = 3;

async function run(command: string, args: readonly string[], cwd: string): Promise<void> {
  try {
    await execFileAsync(command, [...args], { cwd });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`, {
      cause: error,
    });
  }
}

/**
 * Starts a PostgreSQL server of its own, in a fresh folder, on a free port of 127.0.0.1, with
 * durability turned off for speed. As root the server runs as the `postgres` user, which owns the
 * folder; otherwise as the current user.
 */
export async function startPostgres(): Promise<StartedPostgres> {
  const bin = postgresBinDir();
  if (bin === undefined) {
    throw new Error('no PostgreSQL server binaries: run "sudo apt-get install postgresql"');
  }
  const asRoot = process.getuid?.() === 0;
  const dir = await tempDir('paddock-pg-');
  const data = join(dir.path, 'data');
  const log = join(dir.path, 'server.log');
  /** Runs a server program as the user that owns the folder. */
  const server = (program: string, args: readonly string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', join(bin, program), ...args], dir.path)
      : run(join(bin, program), args, dir.path);
  const stopNow = () => {
    const args = ['stop', '-D', data, '-m', 'immediate'];
    const pgCtl = join(bin, 'pg_ctl');
    if (asRoot) spawnSync('runuser', ['-u', 'postgres', '--', pgCtl, ...args], { stdio: 'ignore' });
    else spawnSync(pgCtl, args, { stdio: 'ignore' });
  };
  // A test process that dies without stopping the server does not leave it running.
  process.on('exit', stopNow);
  const stop = async () => {
    process.off('exit', stopNow);
    await server('pg_ctl', ['stop', '-D', data, '-m', 'immediate']).catch(() => undefined);
    await dir.remove();
  };

  try {
    if (asRoot) await run('chown', ['postgres:postgres', dir.path], dir.path);
    await server('initdb', [
      '-D',
      data,
      '--auth=trust',
      '--username=postgres',
      '--encoding=UTF8',
      '--no-locale',
      '--no-sync',
    ]);
    let port = 0;
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      const options = [
        `-k ${dir.path}`,
        `-p ${port}`,
        '-h 127.0.0.1',
        '-c fsync=off',
        '-c synchronous_commit=off',
        '-c full_page_writes=off',
      ].join(' ');
      try {
        await server('pg_ctl', ['start', '-w', '-t', '60', '-D', data, '-l', log, '-o', options]);
        break;
      } catch (error) {
        // The port may have been taken between freePort and the server's bind: try another.
        if (attempt >= START_ATTEMPTS) {
          const text = await readFile(log, 'utf8').catch(() => '');
          throw new Error(`PostgreSQL did not start; its log:\n${text}`, { cause: error });
        }
      }
    }
    const connection = ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres'];
    await run(join(bin, 'createuser'), [...connection, DATABASE], dir.path);
    await run(join(bin, 'createdb'), [...connection, '-O', DATABASE, DATABASE], dir.path);
    return { url: `postgres://${DATABASE}@127.0.0.1:${port}/${DATABASE}`, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
