import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { packageInfo, runMain, UsageError } from '@paddock/common';
import { runLocalDoor } from '../local-door-command.js';
import { runLocalNode } from '../local-node-command.js';
import { resetLocalPassword } from '../local-users-command.js';
import { sampleModelFrom } from '../sample-model.js';
import { up } from '../up.js';

const USAGE = `Usage: paddock <command> [options]

Commands:
  up            run the local platform under one supervisor until Ctrl-C
  node          run the embedded cluster's node: bind its pods here and run
                the paddock-sandbox ones as local processes (up runs it)
  door          give one agent pod stable local addresses: its MCP listener
                on --listen, its human API on the next port, opened as the
                local user dev (up runs it for the sample agent)
  users reset-password USERNAME
                set a new password for a user of the local dashboard (in
                DIR/dashboard/users.db; paddock up may be running) and end
                their sessions: prints a generated password, or reads one
                line from stdin with --password-stdin

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

The sample agent runs tasks only with a model (docs/agent.md), from:
  PADDOCK_MODEL_BASE_URL   an OpenAI-compatible API (Ollama: http://127.0.0.1:11434/v1)
  PADDOCK_MODEL_API_KEY    its key, if it takes one
  PADDOCK_MODEL            the model's name
  PADDOCK_MODEL_PROVIDER   openai (default) or anthropic

Options of node:
  --data DIR    the platform's state folder (default ./data); volumes go
                under DIR/volumes, pods' own folders under DIR/pods
  --kubeconfig FILE
                the embedded cluster's (default DIR/cluster/kubeconfig)
  --seed NAMESPACE/CLAIM=FOLDER
                the claim's volume starts as a copy of FOLDER (repeatable)
  --pod-addresses FIRST[/COUNT]
                the loopback addresses pods get, from FIRST (default
                127.1.0.1/65535): two nodes on one machine need two ranges

Options of door:
  --kubeconfig FILE
                the cluster's (default ./data/cluster/kubeconfig)
  --listen HOST:PORT
                the MCP door (default 127.0.0.1:7070); the human API's is
                the next port. Off loopback both want the bearer token in
                PADDOCK_DOOR_TOKEN
  --pod NAMESPACE/NAME
                the pod the door leads to

Options of users:
  --data DIR    the platform's state folder (default ./data)
  --password-stdin
                read the new password from stdin instead of generating one

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
        seed: { type: 'string', multiple: true },
        'pod-addresses': { type: 'string' },
        listen: { type: 'string' },
        pod: { type: 'string' },
        'password-stdin': { type: 'boolean' },
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
  if (command !== 'up' && command !== 'node' && command !== 'door' && command !== 'users') {
    throw new UsageError(
      command === undefined ? 'no command given' : `unknown command "${command}"`,
    );
  }
  if (rest.length > 0 && command !== 'users') {
    throw new UsageError(`unexpected argument "${rest[0]}"`);
  }
  const dataDir = values.data ?? 'data';
  const own: Record<typeof command, string[]> = {
    up: ['data', 'host', 'sandbox-port', 'dashboard-port', 'cluster-port'],
    node: ['data', 'kubeconfig', 'seed', 'pod-addresses'],
    door: ['kubeconfig', 'listen', 'pod'],
    users: ['data', 'password-stdin'],
  };
  const misplaced = Object.keys(values).find(
    (option) => option !== 'help' && option !== 'version' && !own[command].includes(option),
  );
  if (misplaced) throw new UsageError(`--${misplaced} is not an option of ${command}`);
  if (command === 'users') {
    process.exitCode = await resetLocalPassword(rest, dataDir, values['password-stdin'] === true);
    return;
  }
  if (command === 'node') {
    return runLocalNode({
      dataDir,
      kubeconfig: values.kubeconfig ?? join(dataDir, 'cluster', 'kubeconfig'),
      seeds: values.seed ?? [],
      podAddresses: values['pod-addresses'],
    });
  }
  if (command === 'door') {
    if (values.pod === undefined) throw new UsageError('door needs --pod NAMESPACE/NAME');
    return runLocalDoor({
      kubeconfig: values.kubeconfig ?? join('data', 'cluster', 'kubeconfig'),
      listen: values.listen ?? '127.0.0.1:7070',
      pod: values.pod,
    });
  }
  process.exitCode = await up({
    dataDir,
    host: values.host ?? '127.0.0.1',
    sandboxPort: portOption('--sandbox-port', values['sandbox-port']),
    dashboardPort: portOption('--dashboard-port', values['dashboard-port']),
    clusterPort: portOption('--cluster-port', values['cluster-port']),
    kubeconfig: process.env.KUBECONFIG === '' ? undefined : process.env.KUBECONFIG,
    sampleModel: sampleModelFrom(process.env),
  });
}, USAGE);
