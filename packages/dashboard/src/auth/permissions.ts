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
  manageAllApiKeys: ['admin'],
  viewAllUsers: ['admin'],
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof PERMISSIONS;

export function can(role: Role, action: Action): boolean {
  return (PERMISSIONS[action] as readonly Role[]).includes(role);
}
