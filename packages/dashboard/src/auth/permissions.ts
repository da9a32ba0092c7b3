import type { Role } from './user.js';

/**
 * The specification's permission table, the one place it lives: every endpoint asks `can` with
 * one of these actions.
 */
export const PERMISSIONS = {
  viewAgents: ['viewer', 'editor', 'admin'],
  viewLogs: ['viewer', 'editor', 'admin'],
  viewMetrics: ['viewer', 'editor', 'admin'],
  scaleAgents: ['editor', 'admin'],
  createAgents: ['editor', 'admin'],
  deleteAgents: ['editor', 'admin'],
  modifyPrompts: ['editor', 'admin'],
  modifyTools: ['editor', 'admin'],
  manageOwnApiKeys: ['viewer', 'editor', 'admin'],
  // Beyond the specification's table: the door into agent workspaces (docs/decisions/0022).
  /** Tree, file, live changes, zip download and the API description of an agent's workspace. */
  viewFiles: ['viewer', 'editor', 'admin'],
  /** Terminals, port-forwards and SSH into an agent's workspace. */
  useTerminal: ['editor', 'admin'],
  /** The agent's MCP server, through the dashboard. */
  useMcp: ['editor', 'admin'],
  /** The agent loop's runs: the list, one run and its transcript as it happens. */
  viewRuns: ['viewer', 'editor', 'admin'],
  /** Starting a run of the agent loop, and cancelling one. */
  startRuns: ['editor', 'admin'],
  /** Creating Workspaces from the dashboard: the platform's owners. */
  createWorkspaces: ['admin'],
  manageAllApiKeys: ['admin'],
  viewAllUsers: ['admin'],
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof PERMISSIONS;

export function can(role: Role, action: Action): boolean {
  return (PERMISSIONS[action] as readonly Role[]).includes(role);
}
