import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  ADMIN_PASSWORD,
  Client,
  eventually,
  startDashboard,
  tempDir,
  type RunningDashboard,
} from '@paddock/testing';
import { localComponents } from '../src/components.js';

const bin = join(import.meta.dirname, '..', 'bin', 'paddock.js');

/** Runs the compiled paddock command with arguments and stdin; waits for its exit. */
async function paddock(args: string[], input = '') {
  const child = spawn(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(input);
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

const login = (client: Client, password: string) =>
  client.post('/api/auth/builtin/login', { username: 'admin', password });

let dir: Awaited<ReturnType<typeof tempDir>>;
let data: string;
let dashboard: RunningDashboard;

before(async () => {
  dir = await tempDir();
  data = join(dir.path, 'state');
  // The local platform's dashboard, on the store `paddock up` gives it under the data folder.
  dashboard = await startDashboard({
    SVC_AUTH_MODE: 'builtin',
    SVC_BUILTIN_SQLITE_PATH: join(data, 'dashboard', 'users.db'),
  });
});
after(async () => {
  await dashboard.stop();
  await dir.remove();
});

describe('paddock users reset-password', () => {
  it('resets a local user’s password while the dashboard runs, ending the user’s sessions', async () => {
    const before = new Client(dashboard.base);
    assert.equal((await login(before, ADMIN_PASSWORD)).status, 200);

    const run = await paddock(['users', 'reset-password', 'admin', '--data', data]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /every session of admin has ended/);
    const generated = /^New password: (\S+)$/m.exec(run.stdout)?.[1];
    assert.ok(generated !== undefined, run.stdout);
    assert.equal((await login(new Client(dashboard.base), generated)).status, 200);
    assert.equal((await login(new Client(dashboard.base), ADMIN_PASSWORD)).status, 401);
    await eventually('the old session to end', async () =>
      (await before.get('/api/auth/me')).status === 401 ? true : undefined,
    );

    const piped = await paddock(
      ['users', 'reset-password', 'admin', '--data', data, '--password-stdin'],
      'chosen-on-stdin\n',
    );
    assert.equal(piped.code, 0, piped.stderr);
    assert.doesNotMatch(piped.stdout, /New password/);
    assert.equal((await login(new Client(dashboard.base), 'chosen-on-stdin')).status, 200);
  });

  it('exits 1 for an unknown user or a data folder without a store, 2 on a usage mistake', async () => {
    const unknown = await paddock(['users', 'reset-password', 'nobody', '--data', data]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no user of the built-in store is named "nobody"/);
    const empty = await paddock([
      'users',
      'reset-password',
      'admin',
      '--data',
      join(dir.path, 'none'),
    ]);
    assert.equal(empty.code, 1);
    assert.match(empty.stderr, /there is no user store at/);
    for (const args of [
      ['users'],
      ['users', 'reset-password'],
      ['users', 'reset-password', 'a', '--host', 'h'],
    ]) {
      const run = await paddock(args);
      assert.equal(run.code, 2, args.join(' '));
      assert.match(run.stderr, /^error: .+\n\nUsage: paddock/);
    }
  });

  it('is named in the banner, beside where the initial password is kept', async () => {
    const components = await localComponents({
      dataDir: data,
      host: '127.0.0.1',
      sandboxPort: 7070,
      dashboardPort: 3000,
      clusterPort: 6443,
      kubeconfig: join(dir.path, 'kubeconfig'),
    });
    const banner = components.find((c) => c.name === 'dashboard')!.banner!.join('\n');
    assert.match(
      banner,
      /initial admin: +admin \/ \S+ \(kept in .+secrets\.json; a password changed in the dashboard is not written there\)/,
    );
    assert.ok(banner.includes(`npx paddock users reset-password admin --data ${data}`), banner);
  });
});
