import { parseArgs } from 'node:util';
import { UsageError } from '@paddock/common';

export const USAGE = `Usage:
  paddock-forward --ssh [--register-key PUB --known-hosts FILE --host-key-alias ALIAS] [target]
      OpenSSH ProxyCommand: stdin and stdout become a connection to the workspace's SSH server.
      With --register-key, the public key file is registered first (again after a sandbox
      restart); with --known-hosts, the sandbox's current host key is written there for ALIAS
  paddock-forward --port N [--local-port M] [--bind ADDR] [target]
      listen on ADDR:M (default 127.0.0.1:N) and tunnel each connection to the workspace's
      127.0.0.1:N, until Ctrl-C
  paddock-forward ssh-setup NAME [--key-file PATH] [--ssh-config PATH] [target]
      create a key (default ~/.ssh/paddock_NAME), register it with the sandbox, and write
      "Host NAME" to the ssh config (default ~/.ssh/config) so that ssh, scp and sftp reach it

Target, through the Paddock dashboard (an agent's sandbox):
  --dashboard URL           the dashboard, e.g. https://paddock.example/ (or PADDOCK_DASHBOARD_URL)
  --workspace WS            the workspace (or PADDOCK_WORKSPACE)
  --agent NAME              the agent (or PADDOCK_AGENT)
  --replica N               which of its pods, NAME-N (default 0)
  --api-key KEY             a dashboard API key, sent as X-API-Key (or PADDOCK_API_KEY)

Target, any other proxy in front of a sandbox's human-facing API:
  --url URL                 base URL, e.g. https://ws.example/ (or PADDOCK_FORWARD_URL)
  --token TOKEN             sent as Authorization: Bearer TOKEN (or PADDOCK_FORWARD_TOKEN)
  --cookie COOKIE           sent as the Cookie header (or PADDOCK_FORWARD_COOKIE)
  --header 'Name: value'    an extra header; repeatable (e.g. 'X-Forwarded-Sub: alice' to a sandbox in dev mode)
                            (or PADDOCK_FORWARD_HEADERS, one 'Name: value' per line)

  --credentials-file FILE   JSON with the same settings: {"dashboard", "workspace", "agent", "replica",
                            "apiKey"} or {"url", "token", "cookie", "headers": {...}}; must be mode 0600

  Each setting is taken from the flags first, then the credentials file, then the environment.

Options:
  -h, --help                show this help
  --version                 print the version`;

/** How the command reaches the sandbox, as given on the command line (resolved in credentials.ts). */
export interface TargetFlags {
  url: string | undefined;
  token: string | undefined;
  cookie: string | undefined;
  /** Raw `Name: value` strings, in order. */
  headers: string[];
  credentialsFile: string | undefined;
  dashboard: string | undefined;
  workspace: string | undefined;
  agent: string | undefined;
  replica: string | undefined;
  apiKey: string | undefined;
}

/** What --ssh does before it opens the tunnel, so that ssh-setup's Host block outlives a restart. */
export interface SshPreparation {
  /** A public key file to register (again) with the sandbox. */
  registerKey: string | undefined;
  /** Where to write the sandbox's host keys, as known_hosts lines for `hostKeyAlias`. */
  knownHosts: { file: string; hostKeyAlias: string } | undefined;
}

export type Command =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'ssh'; target: TargetFlags; prepare: SshPreparation }
  | { kind: 'port'; target: TargetFlags; remotePort: number; localPort: number; bind: string }
  | {
      kind: 'ssh-setup';
      target: TargetFlags;
      name: string;
      keyFile: string | undefined;
      sshConfig: string | undefined;
    };

/** The interface --port listens on unless --bind says otherwise: this machine only. */
export const DEFAULT_BIND = '127.0.0.1';

/** Lowest and highest TCP port. */
const MIN_PORT = 1;
const MAX_PORT = 65535;

/**
 * A name for ssh-setup: it becomes an ssh Host alias, part of file names and of a key comment, so
 * letters, digits, `.`, `_` and `-` only, starting with a letter or digit, at most 64 characters.
 */
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** A host name for known_hosts lines (ssh-setup uses `paddock-NAME`): no spaces, commas or patterns. */
const HOST_KEY_ALIAS_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export function parsePort(flag: string, text: string): number {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port >= MIN_PORT && port <= MAX_PORT)) {
    throw new UsageError(
      `${flag} must be a port number from ${MIN_PORT} to ${MAX_PORT}, not "${text}"`,
    );
  }
  return port;
}

/** Parses the arguments (without node and the script). Pure: every mistake is a UsageError. */
export function parseCommandLine(args: readonly string[]): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
        ssh: { type: 'boolean' },
        port: { type: 'string' },
        'local-port': { type: 'string' },
        bind: { type: 'string' },
        'key-file': { type: 'string' },
        'ssh-config': { type: 'string' },
        url: { type: 'string' },
        token: { type: 'string' },
        cookie: { type: 'string' },
        header: { type: 'string', multiple: true },
        'credentials-file': { type: 'string' },
        dashboard: { type: 'string' },
        workspace: { type: 'string' },
        agent: { type: 'string' },
        replica: { type: 'string' },
        'api-key': { type: 'string' },
        'register-key': { type: 'string' },
        'known-hosts': { type: 'string' },
        'host-key-alias': { type: 'string' },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values: v, positionals } = parsed;
  if (v.help) return { kind: 'help' };
  if (v.version) return { kind: 'version' };

  const target: TargetFlags = {
    url: v.url,
    token: v.token,
    cookie: v.cookie,
    headers: v.header ?? [],
    credentialsFile: v['credentials-file'],
    dashboard: v.dashboard,
    workspace: v.workspace,
    agent: v.agent,
    replica: v.replica,
    apiKey: v['api-key'],
  };
  const setup = positionals[0] === 'ssh-setup';
  const modes = [v.ssh === true, v.port !== undefined, setup].filter(Boolean).length;
  if (modes !== 1) {
    throw new UsageError(
      modes === 0 && positionals.length > 0
        ? `unknown command "${positionals[0]}"`
        : 'choose one of --ssh, --port N or ssh-setup NAME',
    );
  }
  const only = (flags: string[], mode: string) => {
    for (const flag of flags) {
      if (v[flag as keyof typeof v] !== undefined)
        throw new UsageError(`--${flag} only goes with ${mode}`);
    }
  };

  const sshOnly = ['register-key', 'known-hosts', 'host-key-alias'];
  if (!v.ssh) only(sshOnly, '--ssh');

  if (setup) {
    only(['local-port', 'bind'], '--port');
    const [, name, extra] = positionals;
    if (name === undefined) throw new UsageError('ssh-setup needs a NAME, e.g. ssh-setup dev');
    if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
    if (!NAME_PATTERN.test(name)) {
      throw new UsageError(
        `invalid NAME "${name}": use letters, digits, ".", "_" and "-" (at most 64, starting with a letter or digit)`,
      );
    }
    return { kind: 'ssh-setup', target, name, keyFile: v['key-file'], sshConfig: v['ssh-config'] };
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  only(['key-file', 'ssh-config'], 'ssh-setup');
  if (v.ssh) {
    only(['local-port', 'bind'], '--port');
    const knownHosts = v['known-hosts'];
    const hostKeyAlias = v['host-key-alias'];
    if ((knownHosts === undefined) !== (hostKeyAlias === undefined)) {
      throw new UsageError('--known-hosts and --host-key-alias go together');
    }
    if (hostKeyAlias !== undefined && !HOST_KEY_ALIAS_PATTERN.test(hostKeyAlias)) {
      throw new UsageError(`invalid --host-key-alias "${hostKeyAlias}"`);
    }
    return {
      kind: 'ssh',
      target,
      prepare: {
        registerKey: v['register-key'],
        knownHosts:
          knownHosts === undefined ? undefined : { file: knownHosts, hostKeyAlias: hostKeyAlias! },
      },
    };
  }
  const remotePort = parsePort('--port', v.port!);
  const localPort =
    v['local-port'] === undefined ? remotePort : parsePort('--local-port', v['local-port']);
  const bind = v.bind ?? DEFAULT_BIND;
  if (bind.trim() === '') throw new UsageError('--bind must not be empty');
  return { kind: 'port', target, remotePort, localPort, bind };
}
