import { posix } from 'node:path';
import { AGENT_NODE_FLAGS, SANDBOX_NODE_FLAGS } from '@paddock/common';
import type { Container } from './pod.js';
import { CREATE_CONTAINER_ERROR, ERR_IMAGE_NEVER_PULL } from './pod-status.js';
import { imageRefusal, runsLocally } from './sandbox-image.js';

/**
 * Which local program a container runs: the one place that maps a container's image and command
 * to a command file of this machine. Pure.
 */

/** The commands the sandbox image holds, as this machine's command files. */
export interface ProgramBins {
  /** paddock-sandbox: the image's entrypoint, run when the container names no command. */
  sandbox: string;
  /** paddock-agent: the agent loop. */
  agent: string;
}

/** A program this machine runs: its command file, its arguments and its Node.js flags. */
export interface LocalProgram {
  ok: true;
  bin: string;
  args: string[];
  /** The flags the image runs this command with (its entrypoint, its agent command). */
  nodeFlags: readonly string[];
}

export type ContainerProgram = LocalProgram | { ok: false; reason: string; message: string };

const NODE_FLAGS: Record<keyof ProgramBins, readonly string[]> = {
  sandbox: SANDBOX_NODE_FLAGS,
  agent: AGENT_NODE_FLAGS,
};

/** The command names a container's command may start with, by the bin they run. */
const COMMANDS: Record<string, keyof ProgramBins> = {
  'paddock-sandbox': 'sandbox',
  'paddock-agent': 'agent',
};

/** The waiting message of a container whose command this node does not have. */
export function commandRefusal(command: string): string {
  return `this node runs only the ${Object.keys(COMMANDS).join(' and ')} commands of the sandbox image, as local processes; the command "${command}" cannot run here`;
}

/**
 * The command file and arguments of the container's process: only sandbox images run; no command
 * (the image's entrypoint) or `paddock-sandbox` runs the sandbox, `paddock-agent` the agent loop
 * (by name or by a path ending in it); the command's further words come before the args, as a
 * runtime joins them.
 */
export function containerProgram(container: Container, bins: ProgramBins): ContainerProgram {
  if (!runsLocally(container.image)) {
    return { ok: false, reason: ERR_IMAGE_NEVER_PULL, message: imageRefusal(container.image) };
  }
  const [first, ...rest] = container.command ?? [];
  const args = [...rest, ...(container.args ?? [])];
  const program = (kind: keyof ProgramBins): LocalProgram => ({
    ok: true,
    bin: bins[kind],
    args,
    nodeFlags: NODE_FLAGS[kind],
  });
  if (first === undefined) return program('sandbox');
  const known = COMMANDS[posix.basename(first)];
  if (known === undefined) {
    return { ok: false, reason: CREATE_CONTAINER_ERROR, message: commandRefusal(first) };
  }
  return program(known);
}

/**
 * Why the container at `index` cannot run beside those before it: a port one of them declares
 * too, since the containers of a pod share its one address (one network namespace). Pure.
 */
export function portClash(containers: readonly Container[], index: number): string | undefined {
  const protocol = (p: { protocol?: string }) => p.protocol ?? 'TCP';
  const own = containers[index]?.ports ?? [];
  for (const other of containers.slice(0, index)) {
    for (const port of other.ports ?? []) {
      if (
        own.some((p) => p.containerPort === port.containerPort && protocol(p) === protocol(port))
      ) {
        return `port ${port.containerPort} is also declared by container "${other.name}": the containers of a pod share one address`;
      }
    }
  }
  return undefined;
}
