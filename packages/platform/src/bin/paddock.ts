import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { packageInfo, runMain, UsageError } from '@paddock/common';
import { runLocalAgents } from '../local-agents-command.js';
import { up } from '../up.js';

const USAGE = `Usage: paddock <command> [options]

Commands:
  up            run the local platform under one supervisor until Ctrl-C
  agents        run the embedded cluster's agents as local processes (up
                runs it; the embedded cluster runs no containers)

Options of up:
  --data DIR    folder for all state (default ./data)
  --host HOST   interface every listener binds (default 127.0.0.1)
  --sandbox-port N
                port of the sandbox's MCP listener (default 7070); its
                human-facing API takes the next port
  --dashboard-port N
                port of the dashboard (default 3000)
  --cluster-port N
                port of the embedded Kubernetes API (default 6443); it runs
                only when KUBECONFIG names no cluster to use instead

Options of agents:
  --data DIR    the platform's state folder (default ./data); replicas'
                workspaces go under DIR/agents
  --kubeconfig FILE
                the embedded cluster's (default DIR/cluster/kubeconfig)

  -h, --help    show this help
  --version     print the version`;

function parseCommandLine(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
        data: { type: 'string' },
        host: { type: 'string' },
        'sandbox-port': { type: 'string' },
        'dashboard-port': { type: 'string' },
        'cluster-port': { type: 'string' },
        kubeconfig: { type: 'string' },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

function portOption(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
    throw new UsageError(`${flag} must be a port number, not "${value}"`);
  }
  return Number(value);
}

runMain(async () => {
  const { values, positionals } = parseCommandLine(process.argv.slice(2));
  if (values.help) return void process.stdout.write(`${USAGE}\n`);
  if (values.version) return void process.stdout.write(`${packageInfo(import.meta.url).version}\n`);
  const [command, ...rest] = positionals;
  if (command !== 'up' && command !== 'agents') {
    throw new UsageError(
      command === undefined ? 'no command given' : `unknown command "${command}"`,
    );
  }
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
  const dataDir = values.data ?? 'data';
  const othersOptions =
    command === 'up' ? ['kubeconfig'] : ['host', 'sandbox-port', 'dashboard-port', 'cluster-port'];
  const misplaced = othersOptions.find((option) => option in values);
  if (misplaced) throw new UsageError(`--${misplaced} is not an option of ${command}`);
  if (command === 'agents') {
    return runLocalAgents({
      dataDir,
      kubeconfig: values.kubeconfig ?? join(dataDir, 'cluster', 'kubeconfig'),
    });
  }
  process.exitCode = await up({
    dataDir,
    host: values.host ?? '127.0.0.1',
    sandboxPort: portOption('--sandbox-port', values['sandbox-port']),
    dashboardPort: portOption('--dashboard-port', values['dashboard-port']),
    clusterPort: portOption('--cluster-port', values['cluster-port']),
    kubeconfig: process.env.KUBECONFIG === '' ? undefined : process.env.KUBECONFIG,
  });
}, USAGE);
