import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { eventually, freePort, launchBrowser, screenshot, start, tempDir } from '@paddock/testing';

const bin = join(import.meta.dirname, '..', 'bin', 'paddock.js');
const runCommand = promisify(execFile);

describe('the paddock command', () => {
  it('prints its usage with --help', async () => {
    const run = start(process.execPath, [bin, '--help']);
    assert.equal((await run.exited).code, 0);
    assert.match(run.output(), /Usage: paddock <command>/);
    assert.match(run.output(), /up {12}run the local platform/);
  });

  it('exits 2 with one line and the usage on an unknown command or flag', async () => {
    for (const args of [
      ['launch'],
      ['up', '--colour'],
      ['up', '--kubeconfig', 'k'],
      ['agents', '--sandbox-port', '7070'],
    ]) {
      const run = start(process.execPath, [bin, ...args]);
      assert.equal((await run.exited).code, 2);
      assert.match(run.output(), /^error: .+\n\nUsage: paddock/);
    }
  });

  it('runs the local platform (embedded cluster with the samples, sandbox, dashboard), state under --data, and stops cleanly on Ctrl-C', async () => {
    const dir = await tempDir();
    const data = join(dir.path, 'state');
    const port = await freePort();
    const dashboardPort = await freePort();
    const clusterPort = await freePort();
    const run = start(
      process.execPath,
      [
        bin,
        'up',
        '--data',
        data,
        '--sandbox-port',
        String(port),
        '--dashboard-port',
        String(dashboardPort),
        '--cluster-port',
        String(clusterPort),
      ],
      { env: { ...process.env, KUBECONFIG: '' } },
    );
    try {
      await run.waitForOutput(/Paddock is running\. Press Ctrl-C to stop\./, 60_000);
      assert.ok(existsSync(join(data, 'workspaces', 'sample', 'src', 'greet.js')));
      assert.match(
        run.output(),
        new RegExp(`sandbox: MCP over HTTP\\+SSE: +http://127\\.0\\.0\\.1:${port}/sse`),
      );
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      assert.equal(health.status, 200);
      const api = await fetch(`http://127.0.0.1:${port + 1}/api/openapi.yaml`);
      assert.equal(api.status, 200, 'the human-facing API runs next to the MCP server');
      // The dashboard runs in builtin mode, and the banner's credentials sign the admin in.
      const [, password] = run.output().match(/initial admin: +admin \/ (\S+)/) ?? [];
      assert.ok(password, 'the banner shows the initial admin');
      const login = await fetch(`http://127.0.0.1:${dashboardPort}/api/auth/builtin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password }),
      });
      assert.equal(login.status, 200);
      assert.ok(
        existsSync(join(data, 'dashboard', 'users.db')),
        'the user store lives under --data',
      );
      // The embedded cluster serves the CRDs and the samples, to kubectl through its kubeconfig.
      const kubeconfig = join(data, 'cluster', 'kubeconfig');
      const kubectl = (...args: string[]) =>
        runCommand('kubectl', ['--kubeconfig', kubeconfig, ...args]);
      const workspaces = await kubectl('get', 'workspaces', '-o', 'name');
      assert.equal(workspaces.stdout.trim(), 'workspace.paddock.dev/sample');
      const agents = await kubectl('get', 'ar', '-n', 'paddock-sample', '-o', 'name');
      assert.equal(agents.stdout.trim(), 'agentruntime.paddock.dev/sample-agent');
      // The operator makes the sample workspace Ready: its namespace, accounts and bindings exist.
      await eventually(
        'the sample workspace Ready',
        async () =>
          (await kubectl('get', 'ws', 'sample', '-o', 'jsonpath={.status.phase}')).stdout ===
          'Ready'
            ? true
            : undefined,
        30_000,
        250,
      );
      const accounts = await kubectl('get', 'sa', '-n', 'paddock-sample', '-o', 'name');
      assert.match(accounts.stdout, /serviceaccount\/workspace-viewer/);
      // The sample agent's replica runs as a local sandbox process whose output is its pod's log.
      await eventually(
        'the sample agent’s pod Running',
        async () =>
          (
            await kubectl(
              'get',
              'pod',
              'sample-agent-0',
              '-n',
              'paddock-sample',
              '-o',
              'jsonpath={.status.phase}',
            )
          ).stdout === 'Running'
            ? true
            : undefined,
        30_000,
        250,
      );
      const agentLog = await kubectl('logs', '-n', 'paddock-sample', 'sample-agent-0');
      assert.match(agentLog.stdout, /"msg":"MCP server listening"/);
      const [, agentPort] = agentLog.stdout.match(/"addr":"127\.0\.0\.1:(\d+)"/) ?? [];
      assert.ok(agentPort, agentLog.stdout);
      // The initial admin is an owner of the sample workspace, so the dashboard shows it.
      const cookie = login.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const listed = await fetch(`http://127.0.0.1:${dashboardPort}/api/workspaces`, {
        headers: { cookie },
      });
      assert.equal(listed.status, 200);
      const { workspaces: shown } = (await listed.json()) as { workspaces: { name: string }[] };
      assert.deepEqual(
        shown.map((w) => w.name),
        ['sample'],
      );
      // A newcomer opens the printed address, signs in with the banner's credentials, and finds
      // the sample workspace, its agent's log and their API keys.
      const browser = await launchBrowser();
      try {
        const page = await browser.newPage();
        await page.goto(`http://127.0.0.1:${dashboardPort}/`);
        await page.getByLabel('Username or email').fill('admin');
        await page.getByLabel('Password', { exact: true }).fill(password);
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await page
          .getByRole('list', { name: 'Your workspaces' })
          .getByRole('link', { name: 'Sample' })
          .click();
        await page.getByRole('link', { name: 'Agents', exact: true }).click();
        await page.getByRole('link', { name: 'sample-agent' }).click();
        await page.getByText('MCP server listening').first().waitFor();
        await screenshot(page, 'newcomer-sample-agent');
        await page.getByRole('link', { name: 'API keys' }).first().click();
        await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
      } finally {
        await browser.close();
      }
      run.child.kill('SIGINT');
      const { code } = await run.exited;
      assert.equal(code, 0, run.output());
      assert.match(run.output(), /stopping: received SIGINT/);
      assert.match(run.output(), /paddock +\| stopped/);
      await assert.rejects(fetch(`http://127.0.0.1:${port}/healthz`), 'the sandbox stopped too');
      await assert.rejects(
        fetch(`http://127.0.0.1:${agentPort}/healthz`),
        'the agent’s sandbox process stopped too',
      );
    } finally {
      await run.stop();
      await dir.remove();
    }
  });
});
