// Imports end in .js: the unit tests type-check this module as Node code, outside the bundler.
import type { AuthConfig, Page, Role } from '../../types.js';
import { asSentence } from '../sentences.js';

/** What the users page decides: names, who is editable, a row's change and status, paging. */

/** Users per page of the list. */
export const PAGE_SIZE = 50;

/** The role choice that clears the override: the user's groups decide again. */
export const FROM_GROUPS = '';

export type Provider = 'builtin' | 'proxy' | 'oauth';

export const ROLE_NAMES: Record<Role, string> = {
  admin: 'Admin',
  editor: 'Editor',
  viewer: 'Viewer',
};

export const PROVIDER_NAMES: Record<Provider, string> = {
  builtin: 'Paddock account',
  oauth: 'Single sign-on',
  proxy: 'Proxy',
};

/** A change to one user, as PATCH /api/users/{id} takes it. */
export interface UserPatch {
  role?: Role | null;
  groups?: string[];
  disabled?: boolean;
}

/** A user as these rules read one. */
export interface UserFacts {
  id: string;
  role: Role;
  roleOverride: Role | null;
  groups: string[];
  provider: Provider;
  disabled: boolean;
  emailVerified: boolean;
}

/** A role in running text: "editor". */
export function roleNoun(role: Role | undefined): string {
  return ROLE_NAMES[role ?? 'viewer'].toLowerCase();
}

/** "a, b ,, c" → ["a", "b", "c"]: the groups as typed, without blanks or repeats. */
export function parseGroups(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((g) => g.trim())
        .filter((g) => g !== ''),
    ),
  ];
}

export function errorText(err: unknown): string {
  return err instanceof Error ? asSentence(err.message) : 'Something went wrong.';
}

/** Whether the dashboard lets its admins edit users at all: only its own accounts are its to edit. */
export function usersEditable(mode: AuthConfig['mode']): boolean {
  return mode === 'builtin';
}

/** Whether this user can be edited here: a built-in account on a dashboard that edits users. */
export function userEditable(mode: AuthConfig['mode'], user: Pick<UserFacts, 'provider'>) {
  return usersEditable(mode) && user.provider === 'builtin';
}

/** A row's key: a new answer for the user starts the row's drafts afresh. */
export function userRowKey(
  user: Pick<UserFacts, 'id' | 'roleOverride' | 'role' | 'groups' | 'disabled'>,
): string {
  return `${user.id}:${user.roleOverride}:${user.role}:${user.groups.join(',')}:${user.disabled}`;
}

/** The role choice a row starts with: the override, or "from groups". */
export function roleDraftOf(user: Pick<UserFacts, 'roleOverride'>): string {
  return user.roleOverride ?? FROM_GROUPS;
}

/** What a row's drafts change about the user: only what differs (empty when nothing does). */
export function patchOf(
  user: Pick<UserFacts, 'roleOverride' | 'groups'>,
  roleDraft: string,
  groupsDraft: string,
): UserPatch {
  const change: UserPatch = {};
  const chosenRole = roleDraft === FROM_GROUPS ? null : (roleDraft as Role);
  if (chosenRole !== user.roleOverride) change.role = chosenRole;
  const parsed = parseGroups(groupsDraft);
  if (parsed.join(',') !== user.groups.join(',')) change.groups = parsed;
  return change;
}

/** Whether a change changes anything. */
export function isChange(change: UserPatch): boolean {
  return Object.keys(change).length > 0;
}

/** A user's status badge: disabled, a built-in account not yet confirmed, or active. */
export function userStatus(user: Pick<UserFacts, 'disabled' | 'provider' | 'emailVerified'>): {
  label: string;
  tone: 'bad' | 'warn' | 'ok';
} {
  if (user.disabled) return { label: 'Disabled', tone: 'bad' };
  if (user.provider === 'builtin' && !user.emailVerified) {
    return { label: 'Email not confirmed', tone: 'warn' };
  }
  return { label: 'Active', tone: 'ok' };
}

/** The list offset a page address asks for: a whole number, 0 when missing or unreadable. */
export function offsetOf(param: string | null): number {
  return Math.max(0, Number.parseInt(param ?? '0', 10) || 0);
}

/** The search parameters of the page at this offset: none for the first. */
export function pageParams(offset: number): Record<string, string> {
  return offset === 0 ? {} : { offset: String(offset) };
}

/** Where the pager stands: the range shown, and the offsets of the pages either side (null: none). */
export interface PagerState {
  from: number;
  to: number;
  total: number;
  previous: number | null;
  next: number | null;
}

export function pagerOf(offset: number, page: Page, shown: number): PagerState {
  return {
    from: page.offset + 1,
    to: page.offset + shown,
    total: page.total,
    previous: offset === 0 ? null : Math.max(0, offset - PAGE_SIZE),
    next: page.offset + shown >= page.total ? null : offset + PAGE_SIZE,
  };
}

/** What the list says when it holds nobody: past the end, or nobody yet. */
export function noUsersText(offset: number): string {
  return offset > 0 ? 'This page is past the last user.' : 'Nobody has signed in yet.';
}

/** The New user form as typed. */
export interface NewUserDraft {
  username: string;
  email: string;
  displayName: string;
  /** A role, or FROM_GROUPS. */
  role: string;
  groups: string;
}

export const EMPTY_NEW_USER: NewUserDraft = {
  username: '',
  email: '',
  displayName: '',
  role: FROM_GROUPS,
  groups: '',
};

/** The body of POST /api/users: trimmed, blanks left out, the role only when one is chosen. */
export interface NewUserBody {
  username: string;
  email: string;
  displayName?: string;
  role?: Role;
  groups?: string[];
}

export function newUserBody(draft: NewUserDraft): NewUserBody {
  const body: NewUserBody = { username: draft.username.trim(), email: draft.email.trim() };
  const displayName = draft.displayName.trim();
  if (displayName !== '') body.displayName = displayName;
  if (draft.role !== FROM_GROUPS) body.role = draft.role as Role;
  const groups = parseGroups(draft.groups);
  if (groups.length > 0) body.groups = groups;
  return body;
}

/** What is missing from the form before it is sent (the API checks the rest), by field. */
export function newUserProblems(body: NewUserBody): Partial<Record<'username' | 'email', string>> {
  const problems: Partial<Record<'username' | 'email', string>> = {};
  if (body.username === '') problems.username = 'Enter a username.';
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(body.email)) {
    problems.email = 'Enter an email address, such as name@example.com.';
  }
  return problems;
}

export const userMessages = {
  created: (username: string, mailedTo: string | null) =>
    mailedTo === null
      ? `Created ${username}.`
      : `Created ${username}. A mail with a link to choose their password went to ${mailedTo}.`,
  notCreated: (err: unknown) => `The user was not created. ${errorText(err)}`,
  resetSent: (username: string, email: string) =>
    `A mail with a link to choose a new password went to ${username} (${email}).`,
  resetNotSent: (username: string, err: unknown) =>
    `No reset mail went to ${username}. ${errorText(err)}`,
  saved: (username: string) => `Saved the changes to ${username}.`,
  enabled: (username: string) => `${username} is enabled.`,
  disabled: (username: string) => `${username} is disabled.`,
  notChanged: (username: string, err: unknown) => `${username} was not changed. ${errorText(err)}`,
};
