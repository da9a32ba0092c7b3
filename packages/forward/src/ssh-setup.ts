import { spawn } from 'node:child_process';
import { chmod, mkdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { TargetFlags } from './command-line.js';
import {
  credentialsFileOf,
  readCredentialsFile,
  resolveTarget,
  type CredentialsFile,
  type Target,
} from './credentials.js';
import { ForwardError } from './failure.js';
import { knownHostsText, parsePublicKeyFile, writeKnownHosts } from './known-hosts.js';
import { SandboxApi, type RegisteredKey } from './sandbox-api.js';
import { hostKeyAlias, hostLinesFor, renderHostBlock, replaceHostBlock } from './ssh-config.js';

/** Folders that hold keys and credentials: the owner only, as OpenSSH wants ~/.ssh. */
const PRIVATE_DIR_MODE = 0o700;
/** Files that hold keys, credentials or the ssh config: the owner only. */
const PRIVATE_FILE_MODE = 0o600;
/** Mode bits that let group or others write: ssh refuses a config that has them. */
const GROUP_OTHER_WRITE = 0o022;
/** Suffix of the key being generated before it replaces the old one. */
const NEW_KEY_SUFFIX = '.paddock-new';

export interface SshSetupPaths {
  keyFile: string;
  sshConfig: string;
  /** The 0600 JSON file with the target, its credentials and the registered key's id. */
  credentialsFile: string;
  /** The sandbox's current host keys, rewritten by the ProxyCommand before each connection. */
  knownHostsFile: string;
}

/** Where ssh-setup NAME keeps its files. Pure: home and environment are arguments. */
export function sshSetupPaths(
  name: string,
  options: { keyFile: string | undefined; sshConfig: string | undefined },
  home: string,
  env: NodeJS.ProcessEnv,
): SshSetupPaths {
  const configHome =
    env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== ''
      ? env.XDG_CONFIG_HOME
      : join(home, '.config');
  return {
    keyFile: resolve(options.keyFile ?? join(home, '.ssh', `paddock_${name}`)),
    sshConfig: resolve(options.sshConfig ?? join(home, '.ssh', 'config')),
    credentialsFile: resolve(configHome, 'paddock', `forward-${name}.json`),
    knownHostsFile: resolve(configHome, 'paddock', `forward-${name}.known_hosts`),
  };
}

export interface SshSetupOptions {
  name: string;
  target: TargetFlags;
  keyFile: string | undefined;
  sshConfig: string | undefined;
  home: string;
  env: NodeJS.ProcessEnv;
  /** The ProxyCommand's program and script: this node and this package's bin. */
  proxyProgram: readonly string[];
  log: (line: string) => void;
}

export interface SshSetupResult {
  paths: SshSetupPaths;
  key: RegisteredKey;
  /** What became of the key a previous run registered. */
  previous: 'none' | 'deleted' | 'gone';
}

/**
 * Creates a key, registers it, removes the one a previous run registered (on the sandbox and on
 * disk), and writes the credentials file and the ssh config block. The new key is registered
 * before the old one is removed, so a failure on the way leaves the previous setup working.
 */
export async function sshSetup(options: SshSetupOptions): Promise<SshSetupResult> {
  const { name, log } = options;
  const paths = sshSetupPaths(name, options, options.home, options.env);
  const existing = await readIfExists(paths.credentialsFile);
  // Without --credentials-file, a re-run reuses what the previous run stored.
  const fileLayer =
    options.target.credentialsFile !== undefined
      ? await readCredentialsFile(options.target.credentialsFile)
      : (existing ?? {});
  const target = resolveTarget(options.target, fileLayer, options.env);
  const api = new SandboxApi(target);

  const pending = `${paths.keyFile}${NEW_KEY_SUFFIX}`;
  await mkdir(dirname(paths.keyFile), { recursive: true, mode: PRIVATE_DIR_MODE });
  await removeKeyPair(pending);
  await sshKeygen(['-q', '-t', 'ed25519', '-N', '', '-C', `paddock-${name}`, '-f', pending]);
  let key: RegisteredKey;
  try {
    // Registered under the key's comment, as the ProxyCommand registers it again after a restart.
    const publicKey = parsePublicKeyFile(await readFile(`${pending}.pub`, 'utf8'), pending);
    key = await api.registerKey(publicKey.line, publicKey.comment);
  } catch (err) {
    await removeKeyPair(pending);
    throw err;
  }
  log(`Registered key ${key.fingerprint} as "${key.name}" (id ${key.id})`);

  let previous: SshSetupResult['previous'] = 'none';
  if (existing?.sshKey) {
    try {
      previous = await api.deleteKey(existing.sshKey.id);
      log(`Removed the previous key ${existing.sshKey.fingerprint} (id ${existing.sshKey.id})`);
    } catch (err) {
      log(
        `warning: the previous key (id ${existing.sshKey.id}) could not be removed: ${(err as Error).message}`,
      );
    }
    if (existing.sshKey.keyFile !== paths.keyFile) await removeKeyPair(existing.sshKey.keyFile);
  }
  await rename(pending, paths.keyFile);
  await rename(`${pending}.pub`, `${paths.keyFile}.pub`);

  const stored: CredentialsFile = {
    ...credentialsFileOf(target),
    sshKey: { id: key.id, fingerprint: key.fingerprint, keyFile: paths.keyFile },
  };
  await mkdir(dirname(paths.credentialsFile), { recursive: true, mode: PRIVATE_DIR_MODE });
  await replaceFile(
    paths.credentialsFile,
    `${JSON.stringify(stored, null, 2)}\n`,
    PRIVATE_FILE_MODE,
  );

  // The sandbox's host keys now: they say whether it reports them at all (then ssh is strict).
  const { hostKeys } = await api.sshEndpoint();
  const alias = hostKeyAlias(name);
  await writeKnownHosts(paths.knownHostsFile, knownHostsText(alias, hostKeys));

  const block = renderHostBlock({
    name,
    identityFile: paths.keyFile,
    knownHostsFile: paths.knownHostsFile,
    strictHostKeyChecking: hostKeys.length > 0 ? 'yes' : 'accept-new',
    proxyCommand: [
      ...options.proxyProgram,
      '--ssh',
      ...targetArgs(target),
      '--credentials-file',
      paths.credentialsFile,
      '--register-key',
      `${paths.keyFile}.pub`,
      '--known-hosts',
      paths.knownHostsFile,
      '--host-key-alias',
      alias,
    ],
  });
  // A config kept as a symlink (dotfile managers do that) is edited where it really is.
  const configFile = await realpath(paths.sshConfig).catch(() => paths.sshConfig);
  const config = (await readIfPresent(configFile)) ?? '';
  const updated = replaceHostBlock(config, name, block);
  const configMode = await stat(configFile).then(
    (s) => s.mode & 0o777 & ~GROUP_OTHER_WRITE,
    () => PRIVATE_FILE_MODE,
  );
  await mkdir(dirname(configFile), { recursive: true, mode: PRIVATE_DIR_MODE });
  await replaceFile(configFile, updated, configMode);
  if (hostLinesFor(updated, name) > 1) {
    log(
      `warning: ${paths.sshConfig} has another "Host ${name}" line outside paddock-forward's block`,
    );
  }
  log(`Wrote "Host ${name}" to ${paths.sshConfig}; connect with: ssh ${name}`);
  return { paths, key, previous };
}

/**
 * Where the ProxyCommand goes, for a person reading the config (the credentials file says it too);
 * never a credential.
 */
export function targetArgs(target: Target): string[] {
  if (target.agent === undefined) return ['--url', target.url];
  const { dashboard, workspace, agent, replica } = target.agent;
  return [
    '--dashboard',
    dashboard,
    '--workspace',
    workspace,
    '--agent',
    agent,
    '--replica',
    String(replica),
  ];
}

async function readIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ForwardError(`cannot read ${path}: ${(err as Error).message}`);
  }
}

async function readIfExists(path: string): Promise<CredentialsFile | undefined> {
  try {
    await stat(path);
  } catch {
    return undefined;
  }
  return readCredentialsFile(path);
}

async function removeKeyPair(path: string): Promise<void> {
  await rm(path, { force: true });
  await rm(`${path}.pub`, { force: true });
}

/**
 * Replaces a file through a temporary sibling created with its final mode, so that a reader never
 * sees half of it and a secret is never readable by others, not even for a moment.
 */
async function replaceFile(path: string, text: string, mode: number): Promise<void> {
  const temporary = `${path}.paddock-tmp`;
  await rm(temporary, { force: true });
  await writeFile(temporary, text, { mode, flag: 'wx' });
  await chmod(temporary, mode); // the umask may have taken bits away
  await rename(temporary, path);
}

function sshKeygen(args: string[]): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('ssh-keygen', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (err) => {
      reject(
        new ForwardError(
          (err as NodeJS.ErrnoException).code === 'ENOENT'
            ? 'ssh-keygen was not found: install the OpenSSH client'
            : `ssh-keygen failed: ${err.message}`,
        ),
      );
    });
    child.on('exit', (code) => {
      if (code === 0) resolvePromise();
      else
        reject(
          new ForwardError(
            `ssh-keygen failed (exit ${code}): ${stderr.trim().split('\n')[0] ?? ''}`,
          ),
        );
    });
  });
}
