import type { Role } from './user.js';

export interface RoleMapping {
  adminGroups: readonly string[];
  editorGroups: readonly string[];
}

/**
 * The specification's role resolution: admin when any group is an admin group, else editor when
 * any is an editor group, else viewer. Group names compare exactly (identity providers treat
 * them as opaque strings).
 */
export function resolveRole(groups: readonly string[], mapping: RoleMapping): Role {
  if (groups.some((g) => mapping.adminGroups.includes(g))) return 'admin';
  if (groups.some((g) => mapping.editorGroups.includes(g))) return 'editor';
  return 'viewer';
}
