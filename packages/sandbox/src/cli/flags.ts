import { stat } from 'node:fs/promises';
import { formatAddress, parseAddress, UsageError, type Address } from '@paddock/common';

/** The sandbox's command line, exactly the specification's flag table. */
export interface SandboxFlags {
  addr: Address;
  apiAddr: Address | undefined;
  enableApi: boolean;
  enableExec: boolean;
  enablePortForward: boolean;
  enableSsh: boolean;
  devMode: boolean;
  /** -allow-unauthenticated-mcp: serve MCP beyond loopback without SVC_MCP_TOKEN. */
  allowUnauthenticatedMcp: boolean;
  workspace: string;
}

export type FlagsOutcome = { help: true } | { version: true } | { flags: SandboxFlags };

const BOOLEAN_FLAGS = {
  'enable-api': 'enableApi',
  'enable-exec': 'enableExec',
  'enable-port-forward': 'enablePortForward',
  'enable-ssh': 'enableSsh',
  'dev-mode': 'devMode',
  'allow-unauthenticated-mcp': 'allowUnauthenticatedMcp',
} as const;
const VALUE_FLAGS = ['addr', 'api-addr', 'workspace'] as const;

export const USAGE = `Usage: paddock-sandbox -addr HOST:PORT -workspace DIR [flags]

Serves one workspace folder: an MCP server for AI agents on -addr (HTTP+SSE at /sse and /message,
Streamable HTTP at /mcp), and optionally a human-facing API on -api-addr.

Flags:
  -addr HOST:PORT         MCP listener address (required)
  -api-addr HOST:PORT     human-facing listener address; empty disables it (default empty)
  -enable-api             mount /api/tree, /api/file, /api/events, /api/download
  -enable-exec            mount /api/exec (WebSocket pseudo-terminal)
  -enable-port-forward    mount /api/port-forward (WebSocket TCP tunnel to 127.0.0.1 only)
  -enable-ssh             start the embedded SSH server on 127.0.0.1
  -dev-mode               without identity headers, act as Sub=dev, User=dev (never in production;
                          refused unless -api-addr is a loopback address)
  -allow-unauthenticated-mcp
                          serve MCP on a non-loopback -addr without SVC_MCP_TOKEN (refused otherwise)
  -workspace DIR          workspace directory (required)
  -h, --help              show this help
  --version               print the version

Flags take one or two dashes; values follow as -flag value or -flag=value; boolean flags take
-flag or -flag=true|false.`;

function parseBoolean(name: string, value: string): boolean {
  if (['true', '1', 't', 'TRUE', 'True', 'T'].includes(value)) return true;
  if (['false', '0', 'f', 'FALSE', 'False', 'F'].includes(value)) return false;
  throw new UsageError(`invalid boolean value "${value}" for flag -${name}`);
}

function address(name: string, text: string): Address {
  const parsed = parseAddress(text);
  if ('error' in parsed) throw new UsageError(`invalid value for flag -${name}: ${parsed.error}`);
  return parsed;
}

/**
 * Parses Go-style flags (`-flag`, `--flag`, `-flag=v`, `-flag v`). Pure: checking that the
 * workspace exists is `checkWorkspace`'s job. Every mistake is a UsageError (exit 2).
 */
export function parseFlags(argv: readonly string[]): FlagsOutcome {
  const values: Partial<Record<(typeof VALUE_FLAGS)[number], string>> = {};
  const booleans: Record<string, boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      if (i + 1 < argv.length) throw new UsageError(`unexpected argument "${argv[i + 1]}"`);
      break;
    }
    const match = /^--?([^=-][^=]*)(?:=(.*))?$/s.exec(arg);
    if (!match) throw new UsageError(`unexpected argument "${arg}"`);
    const name = match[1]!;
    const inline = match[2];
    if (name === 'h' || name === 'help') return { help: true };
    if (name === 'version') return { version: true };
    if (name in BOOLEAN_FLAGS) {
      booleans[BOOLEAN_FLAGS[name as keyof typeof BOOLEAN_FLAGS]] =
        inline === undefined ? true : parseBoolean(name, inline);
    } else if ((VALUE_FLAGS as readonly string[]).includes(name)) {
      let value = inline;
      if (value === undefined) {
        if (i + 1 >= argv.length) throw new UsageError(`flag needs an argument: -${name}`);
        value = argv[++i]!;
      }
      values[name as (typeof VALUE_FLAGS)[number]] = value;
    } else {
      throw new UsageError(`flag provided but not defined: -${name}`);
    }
  }
  if (values.addr === undefined || values.addr === '') throw new UsageError('-addr is required');
  if (values.workspace === undefined || values.workspace === '') {
    throw new UsageError('-workspace is required');
  }
  const apiAddr =
    values['api-addr'] === undefined || values['api-addr'] === ''
      ? undefined
      : address('api-addr', values['api-addr']);
  if (booleans.devMode && apiAddr && !isLoopbackHost(apiAddr.host)) {
    throw new UsageError(
      `-dev-mode is refused with -api-addr ${formatAddress(apiAddr)}: dev mode lets anyone act as "dev", so it listens on loopback only (e.g. 127.0.0.1:${apiAddr.port})`,
    );
  }
  return {
    flags: {
      addr: address('addr', values.addr),
      apiAddr,
      enableApi: booleans.enableApi ?? false,
      enableExec: booleans.enableExec ?? false,
      enablePortForward: booleans.enablePortForward ?? false,
      enableSsh: booleans.enableSsh ?? false,
      devMode: booleans.devMode ?? false,
      allowUnauthenticatedMcp: booleans.allowUnauthenticatedMcp ?? false,
      workspace: values.workspace,
    },
  };
}

/** The -workspace folder must exist and be a directory. */
export async function checkWorkspace(folder: string): Promise<void> {
  const info = await stat(folder).catch(() => undefined);
  if (!info) throw new UsageError(`-workspace ${folder} does not exist`);
  if (!info.isDirectory()) throw new UsageError(`-workspace ${folder} is not a directory`);
}

/**
 * Whether a listen host is reachable from this machine only: `localhost`, 127.0.0.0/8, ::1 (and
 * its IPv4-mapped form). The unspecified addresses (0.0.0.0, ::) and every other name are not.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  return (
    h === 'localhost' ||
    h === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) ||
    /^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)
  );
}

/** What the MCP listener's address and token mean at start: refuse, warn loudly, or nothing. */
export type McpExposure =
  { outcome: 'ok' } | { outcome: 'refuse'; message: string } | { outcome: 'warn'; message: string };

/**
 * An MCP listener beyond loopback without SVC_MCP_TOKEN lets every peer that reaches it run
 * commands in the workspace: refused unless -allow-unauthenticated-mcp says it is meant (then a
 * loud warning at start).
 */
export function mcpExposure(
  flags: Pick<SandboxFlags, 'addr' | 'allowUnauthenticatedMcp'>,
  tokenSet: boolean,
): McpExposure {
  if (tokenSet || isLoopbackHost(flags.addr.host)) return { outcome: 'ok' };
  const where = formatAddress(flags.addr);
  if (!flags.allowUnauthenticatedMcp) {
    return {
      outcome: 'refuse',
      message: `-addr ${where} is not loopback and SVC_MCP_TOKEN is not set: anyone who reaches it could run commands in the workspace. Set SVC_MCP_TOKEN, listen on 127.0.0.1, or pass -allow-unauthenticated-mcp if network policy is the enforcement`,
    };
  }
  return {
    outcome: 'warn',
    message: `UNAUTHENTICATED MCP: -addr ${where} is not loopback and SVC_MCP_TOKEN is not set; every peer that reaches it can run commands in the workspace (-allow-unauthenticated-mcp)`,
  };
}
