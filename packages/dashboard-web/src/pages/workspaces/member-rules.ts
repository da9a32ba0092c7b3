// Imports end in .js: the unit tests type-check this module as Node code, outside the bundler.
import type { Access, AccessChange, AnonymousAccess, RoleBinding, WorkspaceRole } from './types.js';

/** What the members form decides: its rows, from the access and back into a change to send. */

export const ROLES: WorkspaceRole[] = ['owner', 'editor', 'viewer'];

export interface BindingRow {
  key: number;
  /** Comma-separated group names. */
  groups: string;
  /** Comma-separated `namespace/name` ServiceAccounts. */
  serviceAccounts: string;
  role: WorkspaceRole;
}

export interface GrantRow {
  key: number;
  user: string;
  role: WorkspaceRole;
  /** The `datetime-local` value, in the browser's time zone; empty: never. */
  expires: string;
  /** The expiry as the workspace has it, kept as it is unless the input changed. */
  original: string | null;
  /** Whether the grant was in force when read; undefined for a grant added here. */
  active: boolean | undefined;
}

/** The anonymous-access part of the form: a role is kept while access is off. */
export interface AnonymousRow {
  enabled: boolean;
  role: WorkspaceRole;
}

/** An RFC 3339 time as a `datetime-local` value in the browser's time zone ('' if unreadable). */
export function toLocalInput(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

/** A `datetime-local` value (the browser's time zone) as RFC 3339 in UTC. */
export function toRfc3339(local: string): string {
  const date = new Date(local);
  if (Number.isNaN(date.getTime())) throw new Error(`“${local}” is not a date and time.`);
  return date.toISOString().replace(/\.000Z$/, 'Z');
}

/** The form's rows for an access; `nextKey` gives each row the key React tells it apart by. */
export function rowsOf(
  access: Access,
  nextKey: () => number,
): { bindings: BindingRow[]; grants: GrantRow[]; anonymous: AnonymousRow } {
  return {
    bindings: access.roleBindings.map((b) => ({
      key: nextKey(),
      groups: (b.groups ?? []).join(', '),
      serviceAccounts: (b.serviceAccounts ?? []).map((s) => `${s.namespace}/${s.name}`).join(', '),
      role: b.role,
    })),
    grants: access.directGrants.map((g) => ({
      key: nextKey(),
      user: g.user,
      role: g.role,
      expires: toLocalInput(g.expires),
      original: g.expires ?? null,
      active: g.active,
    })),
    anonymous: {
      enabled: access.anonymousAccess.enabled,
      role: access.anonymousAccess.role ?? 'viewer',
    },
  };
}

/** A binding added in the form: empty, with the least role. */
export function newBindingRow(key: number): BindingRow {
  return { key, groups: '', serviceAccounts: '', role: 'viewer' };
}

/** A grant added in the form: empty, with the least role, never expiring, not yet saved. */
export function newGrantRow(key: number): GrantRow {
  return { key, user: '', role: 'viewer', expires: '', original: null, active: undefined };
}

/** "a, b ,, c" → ["a", "b", "c"]: the entries of a comma-separated field, blanks dropped. */
export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** The change to send, or an Error (thrown) saying what to fix first. */
export function changeOf(
  bindings: BindingRow[],
  grants: GrantRow[],
  anonymous: AnonymousRow,
): AccessChange {
  const roleBindings = bindings.map((row, i): RoleBinding => {
    const groups = splitList(row.groups);
    const accounts = splitList(row.serviceAccounts).map((entry) => {
      const [namespace, name, ...rest] = entry.split('/');
      if (namespace === undefined || name === undefined || rest.length > 0 || !namespace || !name) {
        throw new Error(
          `Binding ${i + 1}: write each service account as namespace/name (not “${entry}”).`,
        );
      }
      return { namespace, name };
    });
    if (groups.length + accounts.length === 0) {
      throw new Error(`Binding ${i + 1} names no group or service account: add one, or remove it.`);
    }
    return {
      ...(groups.length > 0 ? { groups } : {}),
      ...(accounts.length > 0 ? { serviceAccounts: accounts } : {}),
      role: row.role,
    };
  });
  const directGrants = grants.map((row, i) => {
    const user = row.user.trim();
    if (user === '') throw new Error(`Grant ${i + 1} names no user: add a username or e-mail.`);
    // An untouched expiry goes back exactly as read: the input holds only whole minutes.
    let expires: string | null = null;
    if (row.original !== null && row.expires === toLocalInput(row.original)) {
      expires = row.original;
    } else if (row.expires !== '') {
      expires = toRfc3339(row.expires);
    }
    return { user, role: row.role, ...(expires === null ? {} : { expires }) };
  });
  const anonymousAccess: AnonymousAccess = anonymous.enabled
    ? { enabled: true, role: anonymous.role }
    : { enabled: false };
  return { roleBindings, directGrants, anonymousAccess };
}

/** The change as sent: with the version it was made on, so that a change made meanwhile conflicts. */
export function requestOf(change: AccessChange, access: Access): AccessChange {
  return access.resourceVersion === null
    ? change
    : { ...change, resourceVersion: access.resourceVersion };
}

/** What a grant's badge says: added here, in force, or past its expiry. */
export function grantState(row: Pick<GrantRow, 'active'>): 'new' | 'active' | 'expired' {
  if (row.active === undefined) return 'new';
  return row.active ? 'active' : 'expired';
}

/** Whether anonymous access as chosen lets anyone change the workspace (worth a warning). */
export function anonymousMayChange(anonymous: AnonymousRow): boolean {
  return anonymous.enabled && anonymous.role !== 'viewer';
}
