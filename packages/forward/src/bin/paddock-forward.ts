import { homedir } from 'node:os';
import { join } from 'node:path';
import { packageInfo, runMain } from '@paddock/common';
import { parseCommandLine, USAGE, type SshPreparation, type TargetFlags } from '../command-line.js';
import { readCredentialsFile, resolveTarget, type Target } from '../credentials.js';
import { ForwardError } from '../failure.js';
import { knownHostsText, readPublicKeyFile, writeKnownHosts } from '../known-hosts.js';
import { forwardLocalPort, formatHostPort } from '../local-forward.js';
import { SandboxApi } from '../sandbox-api.js';
import { sshSetup } from '../ssh-setup.js';
import { describeEnd, openTunnel, pipeTunnel } from '../tunnel.js';

const info = packageInfo(import.meta.url);

/** Flags, then the credentials file, then the environment. */
async function target(flags: TargetFlags): Promise<Target> {
  const file =
    flags.credentialsFile === undefined ? {} : await readCredentialsFile(flags.credentialsFile);
  return resolveTarget(flags, file, process.env);
}

/**
 * ProxyCommand mode: stdin and stdout are ssh's connection to the workspace's SSH server. First,
 * so that a restarted sandbox (which forgot the keys and made a new host key) just works: the key
 * is registered again (a no-op while it is known) and the current host keys go to the known_hosts
 * file ssh reads once the server presents its key, which is after this.
 */
async function proxySsh(flags: TargetFlags, prepare: SshPreparation): Promise<number> {
  const t = await target(flags);
  const api = new SandboxApi(t);
  const register = async () => {
    if (prepare.registerKey === undefined) return;
    const key = await readPublicKeyFile(prepare.registerKey);
    await api.registerKey(key.line, key.comment);
  };
  const [, endpoint] = await Promise.all([register(), api.sshEndpoint()]);
  if (prepare.knownHosts !== undefined) {
    const { file, hostKeyAlias } = prepare.knownHosts;
    await writeKnownHosts(file, knownHostsText(hostKeyAlias, endpoint.hostKeys));
  }
  const tunnel = await openTunnel(t, endpoint.port);
  const end = await pipeTunnel(tunnel, process.stdin, process.stdout, { endOutput: false });
  process.stdin.destroy();
  if (end.normal) return 0;
  throw new ForwardError(describeEnd(end));
}

async function forwardPort(
  flags: TargetFlags,
  remotePort: number,
  localPort: number,
  bind: string,
) {
  const forward = await forwardLocalPort({
    target: await target(flags),
    remotePort,
    localPort,
    bind,
    log: (line) => process.stderr.write(`paddock-forward: ${line}\n`),
  });
  const bound = formatHostPort(forward.address.address, forward.address.port);
  process.stdout.write(`Forwarding ${bound} -> workspace 127.0.0.1:${remotePort}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => void forward.close().then(resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

async function main(): Promise<void> {
  const command = parseCommandLine(process.argv.slice(2));
  let exitCode = 0;
  try {
    switch (command.kind) {
      case 'help':
        return void process.stdout.write(`${USAGE}\n`);
      case 'version':
        return void process.stdout.write(`${info.version}\n`);
      case 'ssh':
        exitCode = await proxySsh(command.target, command.prepare);
        break;
      case 'port':
        await forwardPort(command.target, command.remotePort, command.localPort, command.bind);
        break;
      case 'ssh-setup':
        await sshSetup({
          ...command,
          home: homedir(),
          env: process.env,
          // The absolute node and bin, so that ssh finds them whatever its PATH.
          proxyProgram: [process.execPath, join(info.root, 'bin', 'paddock-forward.js')],
          log: (line) => process.stdout.write(`${line}\n`),
        });
        break;
    }
  } catch (err) {
    if (!(err instanceof ForwardError)) throw err;
    process.stderr.write(`paddock-forward: ${err.message}\n`);
    exitCode = 1;
  }
  // Leave once stdout is flushed: an open stdin or a lingering socket must not keep the process.
  process.stdout.write('', () => process.exit(exitCode));
}

runMain(main, USAGE);
