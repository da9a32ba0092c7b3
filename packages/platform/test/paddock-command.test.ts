import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
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
      ['node', '--sandbox-port', '7070'],
      ['door', '--data', 'd'],
      ['door', '--listen', '127.0.0.1:7070'],
      ['node', '--seed', 'no-equals-sign'],
    ]) {
      const run = start(process.execPath, [bin, ...args]);
      assert.equal((await run.exited).code, 2);
      assert.match(run.output(), /^error: .+\n\nUsage: paddock/);
    }
  });

  it('runs the local platform (embedded cluster with the samples, operator, node, the sample agent’s door, dashboard), state under --data, and stops cleanly on Ctrl-C', async () => {
    const dir = await tempDir();
    const data = join(dir.path, 'state');
    // The sandbox's door takes the port after its own, and the operator the one after the cluster's.
    const port = await freePort(2);
    const dashboardPort = await freePort();
    const clusterPort = await freePort(2);
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
      const volume = join(data, 'volumes', 'paddock-sample', 'workspace-sample-agent-0');
      assert.match(
        run.output(),
        new RegExp(`sandbox: MCP over Streamable HTTP: +(http://127\\.0\\.0\\.1:${port}/mcp)`),
      );
      const [, mcpUrl] = run.output().match(/sandbox: MCP over Streamable HTTP: +(\S+)/) ?? [];
      const [, apiDocs] = run.output().match(/sandbox: human API \(as dev\): +(\S+)/) ?? [];
      assert.ok(mcpUrl && apiDocs, run.output());
      // The newcomer's path: the sample agent's pod serves MCP at the printed address once it runs,
      // and what an MCP client writes there, the human API at the printed address lists.
      await eventually(
        'the sample agent serving through its door',
        async () =>
          (await fetch(new URL('/readyz', mcpUrl)).catch(() => undefined))?.ok ? true : undefined,
        60_000,
        250,
      );
      assert.ok(existsSync(join(volume, 'src', 'greet.js')), 'seeded from the sample workspace');
      const mcp = new Client({ name: 'newcomer', version: '1.0.0' });
      await mcp.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
      try {
        const wrote = await mcp.callTool({
          name: 'Write',
          arguments: { file_path: 'notes/hello.md', content: '# hello from MCP\n' },
        });
        assert.notEqual(wrote.isError, true, JSON.stringify(wrote));
      } finally {
        await mcp.close();
      }
      const tree = await fetch(new URL('/api/tree?path=notes', apiDocs));
      assert.equal(tree.status, 200, await tree.clone().text());
      assert.match(await tree.text(), /hello\.md/);
      assert.equal(
        await readFile(join(volume, 'notes', 'hello.md'), 'utf8'),
        '# hello from MCP\n',
        'in the pod’s volume folder',
      );
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
      // The sample tool registry follows the ports this start was given, so its tools are found.
      const registry = JSON.parse(
        (await kubectl('get', 'toolregistry', 'sample-tools', '-n', 'paddock-sample', '-o', 'json'))
          .stdout,
      ) as { spec: { handlers: unknown[] } };
      assert.deepEqual(
        JSON.stringify(registry.spec.handlers).match(/http:\/\/[^/"]+/g),
        [port, port + 1, dashboardPort].map((p) => `http://127.0.0.1:${p}`),
      );
      await eventually(
        'the sample tool registry Ready',
        async () =>
          (
            await kubectl(
              'get',
              'toolregistry',
              'sample-tools',
              '-n',
              'paddock-sample',
              '-o',
              'jsonpath={.status.phase}',
            )
          ).stdout === 'Ready'
            ? true
            : undefined,
        60_000,
        250,
      );
      const accounts = await kubectl('get', 'sa', '-n', 'paddock-sample', '-o', 'name');
      assert.match(accounts.stdout, /serviceaccount\/workspace-viewer/);
      // The operator made the sample agent a StatefulSet; the local node runs its pod as a local
      // sandbox process whose output is the pod's log.
      const shown = await kubectl('get', 'sts,pods,pvc', '-n', 'paddock-sample', '-o', 'name');
      assert.match(shown.stdout, /statefulset\.apps\/sample-agent/);
      assert.match(shown.stdout, /pod\/sample-agent-0/);
      assert.match(shown.stdout, /persistentvolumeclaim\/workspace-sample-agent-0/);
      const agentLog = await kubectl('logs', '-n', 'paddock-sample', 'sample-agent-0');
      assert.match(agentLog.stdout, /"msg":"MCP server listening"/);
      const podIP = (
        await kubectl(
          'get',
          'pod',
          'sample-agent-0',
          '-n',
          'paddock-sample',
          '-o',
          'jsonpath={.status.podIP}',
        )
      ).stdout;
      assert.match(podIP, /^127\./);
      // The initial admin is an owner of the sample workspace, so the dashboard shows it.
      const cookie = login.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const listed = await fetch(`http://127.0.0.1:${dashboardPort}/api/workspaces`, {
        headers: { cookie },
      });
      assert.equal(listed.status, 200);
      const { workspaces: visible } = (await listed.json()) as {
        workspaces: { name: string }[];
      };
      assert.deepEqual(
        visible.map((w) => w.name),
        ['sample'],
      );
      // A newcomer opens the printed address, signs in with the banner's credentials, and finds
      // the sample workspace, its agent's files and log, and their API keys.
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
        // The agent's workspace through the dashboard: the sample files, and the pod's log.
        await page.getByRole('tab', { name: 'Files' }).click();
        const tree = page.getByRole('navigation', { name: 'Files' });
        await tree.getByRole('button', { name: /README\.md/ }).click();
        await page
          .getByRole('region', { name: 'File viewer' })
          .getByText('README.md')
          .first()
          .waitFor();
        await page.getByRole('tab', { name: 'Log' }).click();
        await page.getByText('MCP server listening').first().waitFor();
        await screenshot(page, 'newcomer-sample-agent');
        await page.getByRole('link', { name: 'API keys' }).first().click();
        await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
      } finally {
        await browser.close();
      }
      // A second platform on the same folder would run a second node over the same pods.
      const second = start(process.execPath, [bin, 'up', '--data', data], {
        env: { ...process.env, KUBECONFIG: '' },
      });
      assert.equal((await second.exited).code, 1, second.output());
      assert.match(second.output(), /another paddock up \(pid \d+\) uses .+: stop it first/);
      run.child.kill('SIGINT');
      const { code } = await run.exited;
      assert.equal(code, 0, run.output());
      assert.match(run.output(), /stopping: received SIGINT/);
      assert.match(run.output(), /paddock +\| stopped/);
      assert.ok(!existsSync(join(data, 'paddock.pid')), 'the data folder is free again');
      await assert.rejects(fetch(`http://127.0.0.1:${port}/healthz`), 'the sandbox stopped too');
      await assert.rejects(
        fetch(`http://${podIP}:7070/healthz`),
        'the agent’s sandbox process stopped too',
      );
    } finally {
      await run.stop();
      await dir.remove();
    }
  });
});
