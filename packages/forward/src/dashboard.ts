import { UsageError } from '@paddock/common';

/**
 * The dashboard form of a target: one replica of an agent in a workspace, reached through the
 * dashboard's door to its sandbox. Pure: names in, URL out.
 */
export interface DashboardAgent {
  /** The dashboard's base URL, ending in `/` (it may sit under a path prefix). */
  dashboard: string;
  workspace: string;
  agent: string;
  /** The StatefulSet ordinal: the pod is `<agent>-<replica>`. */
  replica: number;
}

/** The replica used when none is given: the first pod of the agent. */
export const DEFAULT_REPLICA = 0;

/** Highest replica number accepted (far above any StatefulSet a workspace runs). */
const MAX_REPLICA = 9999;

/**
 * Workspace and agent names are Kubernetes object names (RFC 1123 subdomains): lowercase letters,
 * digits, `-` and `.`, starting and ending with a letter or digit. Checking them here turns a typo
 * into a usage error instead of a 404, and keeps `.` and `..` out of the URL path.
 */
const OBJECT_NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

export function checkObjectName(flag: string, name: string): string {
  if (!OBJECT_NAME.test(name)) {
    throw new UsageError(
      `${flag} must be a workspace or agent name (lowercase letters, digits, "-" and "."), not "${name}"`,
    );
  }
  return name;
}

/** `--replica N` or the file's `replica`: a whole number from 0. */
export function parseReplica(text: string | number): number {
  const value = typeof text === 'number' ? text : /^\d{1,4}$/.test(text) ? Number(text) : NaN;
  if (!(Number.isInteger(value) && value >= 0 && value <= MAX_REPLICA)) {
    throw new UsageError(
      `--replica must be a whole number from 0 to ${MAX_REPLICA}, not "${text}"`,
    );
  }
  return value;
}

/** The pod of a replica, named as the StatefulSet names it. */
export function podName(agent: string, replica: number): string {
  return `${agent}-${replica}`;
}

/** The door to the replica's sandbox: `<dashboard>/api/workspaces/WS/agents/A/pods/A-N/sandbox/`. */
export function sandboxBaseUrl(target: DashboardAgent): string {
  const segments = [
    'api',
    'workspaces',
    target.workspace,
    'agents',
    target.agent,
    'pods',
    podName(target.agent, target.replica),
    'sandbox',
  ];
  return new URL(`${segments.map(encodeURIComponent).join('/')}/`, target.dashboard).href;
}
