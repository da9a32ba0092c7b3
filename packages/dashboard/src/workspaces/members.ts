import {
  isGrantActive,
  parseRfc3339,
  WORKSPACE_ROLES,
  type WorkspaceRole,
  type WorkspaceSpec,
} from '@paddock/kube';

/** The part of a Workspace's spec its owners manage: who has access. */
export type AccessSpec = Pick<WorkspaceSpec, 'roleBindings' | 'directGrants' | 'anonymousAccess'>;

/** Longest lists an owner may set; far above any real team, well below a flood. */
export const MAX_ACCESS_ENTRIES = 500;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function role(value: unknown, where: string): WorkspaceRole {
  if (typeof value !== 'string' || !(WORKSPACE_ROLES as readonly string[]).includes(value)) {
    throw new Error(`${where}.role must be owner, editor or viewer`);
  }
  return value as WorkspaceRole;
}

function onlyKeys(value: Record<string, unknown>, keys: readonly string[], where: string) {
  for (const key of Object.keys(value)) {
    if (!keys.includes(key)) throw new Error(`${where}: unknown field "${key}"`);
  }
}

function strings(value: unknown, where: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && v.trim() !== '')) {
    throw new Error(`${where} must be an array of non-empty strings`);
  }
  return value.map((v: string) => v.trim());
}

function list(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw new Error(`${where} must be an array`);
  if (value.length > MAX_ACCESS_ENTRIES) {
    throw new Error(`${where} may hold at most ${MAX_ACCESS_ENTRIES} entries`);
  }
  return value;
}

/**
 * The access an owner asks for, checked field by field: roleBindings, directGrants (expiry in RFC
 * 3339) and anonymousAccess, each optional (absent: unchanged). Throws an Error naming the field.
 */
export function parseAccessChange(body: unknown): AccessSpec {
  if (!isObject(body)) throw new Error('the body must be a JSON object');
  onlyKeys(body, ['roleBindings', 'directGrants', 'anonymousAccess'], 'body');
  const change: AccessSpec = {};
  if (body.roleBindings !== undefined) {
    change.roleBindings = list(body.roleBindings, 'roleBindings').map((entry, i) => {
      const where = `roleBindings[${i}]`;
      if (!isObject(entry)) throw new Error(`${where} must be an object`);
      onlyKeys(entry, ['groups', 'serviceAccounts', 'role'], where);
      const binding: NonNullable<AccessSpec['roleBindings']>[number] = {
        role: role(entry.role, where),
      };
      if (entry.groups !== undefined) binding.groups = strings(entry.groups, `${where}.groups`);
      if (entry.serviceAccounts !== undefined) {
        binding.serviceAccounts = list(entry.serviceAccounts, `${where}.serviceAccounts`).map(
          (sa, j) => {
            const at = `${where}.serviceAccounts[${j}]`;
            if (!isObject(sa) || typeof sa.name !== 'string' || typeof sa.namespace !== 'string') {
              throw new Error(`${at} must be {name, namespace}`);
            }
            onlyKeys(sa, ['name', 'namespace'], at);
            return { name: sa.name, namespace: sa.namespace };
          },
        );
      }
      if ((binding.groups?.length ?? 0) + (binding.serviceAccounts?.length ?? 0) === 0) {
        throw new Error(`${where} names no group or ServiceAccount`);
      }
      return binding;
    });
  }
  if (body.directGrants !== undefined) {
    change.directGrants = list(body.directGrants, 'directGrants').map((entry, i) => {
      const where = `directGrants[${i}]`;
      if (!isObject(entry)) throw new Error(`${where} must be an object`);
      onlyKeys(entry, ['user', 'role', 'expires'], where);
      if (typeof entry.user !== 'string' || entry.user.trim() === '') {
        throw new Error(`${where}.user must be a username or an email address`);
      }
      const grant: NonNullable<AccessSpec['directGrants']>[number] = {
        user: entry.user.trim(),
        role: role(entry.role, where),
      };
      if (entry.expires !== undefined && entry.expires !== null) {
        if (typeof entry.expires !== 'string' || parseRfc3339(entry.expires) === undefined) {
          throw new Error(
            `${where}.expires must be an RFC 3339 time, such as 2030-01-01T00:00:00Z`,
          );
        }
        grant.expires = entry.expires;
      }
      return grant;
    });
  }
  if (body.anonymousAccess !== undefined) {
    const entry = body.anonymousAccess;
    if (!isObject(entry) || typeof entry.enabled !== 'boolean') {
      throw new Error('anonymousAccess must be {enabled, role}');
    }
    onlyKeys(entry, ['enabled', 'role'], 'anonymousAccess');
    change.anonymousAccess = {
      enabled: entry.enabled,
      role: entry.role === undefined ? 'viewer' : role(entry.role, 'anonymousAccess'),
    };
  }
  return change;
}

/**
 * Whether someone can still manage the workspace's members: an owner binding naming a group or a
 * ServiceAccount, or a direct owner grant in force. Anonymous ownership does not count: nobody in
 * particular would hold it.
 */
export function hasOwner(access: AccessSpec, now: Date): boolean {
  return (
    (access.roleBindings ?? []).some(
      (binding) =>
        binding.role === 'owner' &&
        (binding.groups?.length ?? 0) + (binding.serviceAccounts?.length ?? 0) > 0,
    ) ||
    (access.directGrants ?? []).some((grant) => grant.role === 'owner' && isGrantActive(grant, now))
  );
}
