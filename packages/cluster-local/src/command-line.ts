import { parseAddress, UsageError, type Address } from '@paddock/common';

export interface ClusterFlags {
  listen: Address;
  dataDir?: string;
  kubeconfigPath?: string;
}

export type CommandLine = { help: true } | { version: true } | { flags: ClusterFlags };

export const USAGE = `Usage: paddock-cluster [--listen HOST:PORT] [--data DIR] [--kubeconfig FILE]

Runs an embedded Kubernetes-compatible API server over HTTP, for local runs and tests. It is not a
production cluster: nothing schedules or runs pods.

Options:
  --listen HOST:PORT   where to listen (default 127.0.0.1:6443; port 0 picks a free port)
  --data DIR           keep objects, the admin token and the signing key in DIR (SQLite);
                       without it everything is kept in memory and lost at exit
  --kubeconfig FILE    write an admin kubeconfig (context paddock-local) to FILE, mode 0600
  -h, --help           show this help
  --version            print the version`;

const VALUE_FLAGS = ['listen', 'data', 'kubeconfig'] as const;
type ValueFlag = (typeof VALUE_FLAGS)[number];

/** Parses the command line; every mistake is a UsageError (exit 2 with the usage). */
export function parseCommandLine(argv: readonly string[]): CommandLine {
  const values: Partial<Record<ValueFlag, string>> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h' || arg === '--help') return { help: true };
    if (arg === '--version') return { version: true };
    const match = /^--([a-z]+)(?:=(.*))?$/s.exec(arg);
    if (!match) throw new UsageError(`unexpected argument "${arg}"`);
    const name = match[1] as ValueFlag;
    if (!VALUE_FLAGS.includes(name)) throw new UsageError(`unknown option --${match[1]}`);
    let value = match[2];
    if (value === undefined) {
      if (i + 1 >= argv.length) throw new UsageError(`--${name} needs a value`);
      value = argv[++i]!;
    }
    if (value === '') throw new UsageError(`--${name} needs a value`);
    values[name] = value;
  }
  const listen = parseAddress(values.listen ?? '127.0.0.1:6443');
  if ('error' in listen) throw new UsageError(`--listen: ${listen.error}`);
  return {
    flags: {
      listen,
      ...(values.data ? { dataDir: values.data } : {}),
      ...(values.kubeconfig ? { kubeconfigPath: values.kubeconfig } : {}),
    },
  };
}
