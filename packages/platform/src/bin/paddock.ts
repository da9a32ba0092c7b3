import { parseArgs } from 'node:util';
import { packageInfo, runMain, UsageError } from '@paddock/common';
import { up } from '../up.js';

const USAGE = `Usage: paddock <command> [options]

Commands:
  up            run the local platform under one supervisor until Ctrl-C

Options of up:
  --data DIR    folder for all state (default ./data)
  --host HOST   interface every listener binds (default 127.0.0.1)
  --sandbox-port N
                port of the sandbox's MCP listener (default 7070); its
                human-facing API takes the next port

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
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

runMain(async () => {
  const { values, positionals } = parseCommandLine(process.argv.slice(2));
  if (values.help) return void process.stdout.write(`${USAGE}\n`);
  if (values.version) return void process.stdout.write(`${packageInfo(import.meta.url).version}\n`);
  const [command, ...rest] = positionals;
  if (command !== 'up') {
    throw new UsageError(
      command === undefined ? 'no command given' : `unknown command "${command}"`,
    );
  }
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
  const sandboxPort = values['sandbox-port'];
  if (sandboxPort !== undefined && !/^\d{1,5}$/.test(sandboxPort)) {
    throw new UsageError(`--sandbox-port must be a port number, not "${sandboxPort}"`);
  }
  process.exitCode = await up({
    dataDir: values.data ?? 'data',
    host: values.host ?? '127.0.0.1',
    sandboxPort: sandboxPort === undefined ? undefined : Number(sandboxPort),
  });
}, USAGE);
