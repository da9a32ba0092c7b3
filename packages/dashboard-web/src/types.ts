/** The shapes the dashboard API answers with (see /api/openapi.yaml). */

export type Role = 'viewer' | 'editor' | 'admin';
export type WorkspaceRole = 'viewer' | 'editor' | 'owner';

export interface User {
  id: string;
  username: string;
  email?: string;
  displayName?: string;
  groups: string[];
  role: Role;
  provider: 'anonymous' | 'proxy' | 'oauth' | 'builtin' | 'api-key';
}

export interface AuthConfig {
  mode: 'anonymous' | 'proxy' | 'oauth' | 'builtin';
  signupAllowed: boolean;
  verifyEmail: boolean;
  provider: string | null;
  apiKeysEnabled: boolean;
  minPasswordLength: number;
}

export interface Page {
  total: number;
  limit: number;
  offset: number;
}

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export interface WorkspaceSummary {
  name: string;
  displayName: string;
  description: string | null;
  environment: string | null;
  namespace: string;
  phase: string;
  role: WorkspaceRole;
}
