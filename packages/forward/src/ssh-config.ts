import { ForwardError } from './failure.js';

/**
 * The `Host NAME` block that ssh-setup keeps in an OpenSSH client config, between marker comments
 * so that a re-run replaces it and nothing else. Pure text in, text out.
 */

export function markers(name: string): { begin: string; end: string } {
  return { begin: `# paddock-forward ${name} begin`, end: `# paddock-forward ${name} end` };
}

export interface HostBlock {
  name: string;
  identityFile: string;
  /** The file the ProxyCommand keeps the sandbox's current host keys in. */
  knownHostsFile: string;
  /**
   * `yes` when the sandbox reports its host keys (the ProxyCommand pins them); `accept-new` for
   * a sandbox that does not, whose key ssh then takes on each connection (the file starts empty).
   */
  strictHostKeyChecking: 'yes' | 'accept-new';
  /** The ProxyCommand as an argument vector; quoted for the shell here. */
  proxyCommand: readonly string[];
}

/** The name host keys are filed under: also the HostName, which nothing resolves. */
export function hostKeyAlias(name: string): string {
  return `paddock-${name}`;
}

/** Any user name does: the embedded SSH server authenticates by key and runs as the sandbox. */
export const SSH_USER = 'workspace';

/** Quotes one argument for /bin/sh: single quotes, with `'` written as `'\''`. */
export function shellQuote(arg: string): string {
  if (/^[A-Za-z0-9_./:=@+-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** ssh expands %-tokens in ProxyCommand and IdentityFile: a literal % is written %%. */
function escapePercent(text: string): string {
  return text.replace(/%/g, '%%');
}

function checkPath(what: string, path: string): void {
  // A line break would end the directive; in IdentityFile, `"` ends the quoted path and `${` starts
  // an environment variable. Neither can be escaped, so such a path is refused.
  if (/[\r\n]/.test(path) || (what !== 'ProxyCommand' && /"|\$\{/.test(path))) {
    throw new ForwardError(
      `${what} path ${JSON.stringify(path)} cannot be written to an ssh config`,
    );
  }
}

/** The ProxyCommand line: each argument quoted for the shell ssh runs it with, % escaped. */
export function proxyCommandLine(argv: readonly string[]): string {
  for (const arg of argv) checkPath('ProxyCommand', arg);
  return escapePercent(argv.map(shellQuote).join(' '));
}

/**
 * The block, markers included, without a trailing newline. The host key of a sandbox is new at
 * every start, so it is not remembered across connections: the ProxyCommand writes the key the
 * sandbox reports now into UserKnownHostsFile before ssh checks it, under HostKeyAlias
 * (docs/decisions/0024-ssh-through-the-dashboard.md).
 */
export function renderHostBlock(block: HostBlock): string {
  checkPath('IdentityFile', block.identityFile);
  checkPath('UserKnownHostsFile', block.knownHostsFile);
  const { begin, end } = markers(block.name);
  return [
    begin,
    `Host ${block.name}`,
    `  HostName ${hostKeyAlias(block.name)}`,
    `  HostKeyAlias ${hostKeyAlias(block.name)}`,
    `  User ${SSH_USER}`,
    `  IdentityFile "${escapePercent(block.identityFile)}"`,
    '  IdentitiesOnly yes',
    `  StrictHostKeyChecking ${block.strictHostKeyChecking}`,
    `  UserKnownHostsFile "${escapePercent(block.knownHostsFile)}"`,
    // Host keys are never hashed in this file: it is rewritten for every connection anyway.
    '  HashKnownHosts no',
    // The global known_hosts files know nothing of this host, and must not be asked to.
    '  GlobalKnownHostsFile /dev/null',
    // With accept-new, ssh says at every connection that it "permanently added" the key.
    '  LogLevel ERROR',
    `  ProxyCommand ${proxyCommandLine(block.proxyCommand)}`,
    end,
  ].join('\n');
}

/** Whether a config line opens a section (`Host` or `Match`), which ends the global options. */
function opensSection(line: string): boolean {
  return /^\s*(host|match)(\s|=)/i.test(line);
}

/**
 * The config with NAME's block replaced by `block`: in place of the first old one (others are
 * dropped), or, when there is none, before the first Host or Match section, so that it comes
 * ahead of catch-all sections like `Host *` (ssh keeps the first value it finds) while the options
 * at the top stay global. A begin marker without its end is an error: the file is left alone.
 */
export function replaceHostBlock(config: string, name: string, block: string): string {
  const { begin, end } = markers(name);
  const lines = config === '' ? [] : config.replace(/\r?\n$/, '').split(/\r?\n/);
  const kept: string[] = [];
  let insertAt: number | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() !== begin) {
      kept.push(line);
      continue;
    }
    const close = lines.findIndex((l, j) => j > i && l.trim() === end);
    if (close === -1) {
      throw new ForwardError(
        `the ssh config has "${begin}" on line ${i + 1} without "${end}"; fix the file by hand and run again`,
      );
    }
    insertAt ??= kept.length;
    i = close;
  }
  if (insertAt === undefined) {
    const section = kept.findIndex(opensSection);
    insertAt = section === -1 ? kept.length : section;
  }
  const before = kept.slice(0, insertAt);
  const after = kept.slice(insertAt);
  // One blank line around the block, for people reading the file.
  while (before.length > 0 && before[before.length - 1]!.trim() === '') before.pop();
  while (after.length > 0 && after[0]!.trim() === '') after.shift();
  while (after.length > 0 && after[after.length - 1]!.trim() === '') after.pop();
  const parts = [
    ...(before.length > 0 ? [...before, ''] : []),
    block,
    ...(after.length > 0 ? ['', ...after] : []),
  ];
  return `${parts.join('\n')}\n`;
}

/** How many `Host` lines name exactly NAME (more than one means an unmanaged block shadows ours). */
export function hostLinesFor(config: string, name: string): number {
  return config
    .split(/\r?\n/)
    .filter((line) => /^\s*host(\s|=)/i.test(line))
    .filter((line) =>
      line
        .replace(/^\s*host\s*=?\s*/i, '')
        .split(/\s+/)
        .includes(name),
    ).length;
}
