// Imports end in .js: the unit tests type-check this module as Node code, outside the bundler.
import type { components } from '../../api-types.js';
import type { WorkspaceRole } from './types.js';

/** What the new-workspace form decides: its checks (those of the dashboard) and its request. */

export type NewWorkspace = components['schemas']['NewWorkspace'];
export type Environment = NonNullable<NewWorkspace['environment']>;

export const ENVIRONMENTS: readonly Environment[] = ['development', 'staging', 'production'];

/** A DNS-1123 label, as the dashboard checks a new workspace's name and its namespace's. */
export const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
export const DNS_LABEL_MAX = 63;
export const DNS_LABEL_HINT =
  'Lower-case letters, digits and “-”, starting and ending with a letter or digit, at most 63 characters.';

export interface NewWorkspaceDraft {
  name: string;
  displayName: string;
  description: string;
  environment: Environment;
  /** Empty: the workspace's name. */
  namespace: string;
  createNamespace: boolean;
  /** A first group given a role; empty: none. */
  group: string;
  groupRole: WorkspaceRole;
}

export const EMPTY_DRAFT: NewWorkspaceDraft = {
  name: '',
  displayName: '',
  description: '',
  environment: 'development',
  namespace: '',
  createNamespace: true,
  group: '',
  groupRole: 'editor',
};

/** The fields of the form a problem can be shown next to. */
export type DraftField = 'name' | 'displayName' | 'namespace' | 'group';
export type DraftProblems = Partial<Record<DraftField, string>>;

function labelProblem(value: string, what: string): string | undefined {
  if (value === '') return `Enter ${what}.`;
  if (value.length > DNS_LABEL_MAX) return `${what} is longer than ${DNS_LABEL_MAX} characters.`;
  return DNS_LABEL.test(value) ? undefined : `This is not a valid name. ${DNS_LABEL_HINT}`;
}

/** The namespace the workspace will have: the one entered, or the workspace's name. */
export function namespaceOf(draft: NewWorkspaceDraft): string {
  return draft.namespace.trim() === '' ? draft.name.trim() : draft.namespace.trim();
}

/** What to fix before sending, field by field: empty when nothing. */
export function draftProblems(draft: NewWorkspaceDraft): DraftProblems {
  const problems: DraftProblems = {};
  const name = labelProblem(draft.name.trim(), 'a name');
  if (name !== undefined) problems.name = name;
  if (draft.displayName.trim() === '') problems.displayName = 'Enter a display name.';
  if (draft.namespace.trim() !== '') {
    const namespace = labelProblem(draft.namespace.trim(), 'a namespace');
    if (namespace !== undefined) problems.namespace = namespace;
  }
  if (draft.group.includes(',')) problems.group = 'Enter one group; add more on the Members tab.';
  return problems;
}

/**
 * Whether the person creating the workspace will own it: yes, unless the first group is its
 * owner (the dashboard then makes nobody else one).
 */
export function creatorOwns(draft: NewWorkspaceDraft): boolean {
  return draft.group.trim() === '' || draft.groupRole !== 'owner';
}

/** The request of a checked draft: blank optional fields left out. */
export function requestOf(draft: NewWorkspaceDraft): NewWorkspace {
  const request: NewWorkspace = {
    name: draft.name.trim(),
    displayName: draft.displayName.trim(),
    environment: draft.environment,
    namespace: { name: namespaceOf(draft), create: draft.createNamespace },
  };
  const description = draft.description.trim();
  if (description !== '') request.description = description;
  const group = draft.group.trim();
  if (group !== '') request.roleBindings = [{ groups: [group], role: draft.groupRole }];
  return request;
}

/**
 * The field a refusal of the dashboard is about, from its message (`body.namespace.name must
 * match…`, `workspace "x" already exists`), to show it there; undefined for the form as a whole.
 */
export function fieldOfRefusal(code: string, message: string): DraftField | undefined {
  if (code === 'already_exists') {
    if (message.startsWith('namespace ')) return 'namespace';
    if (message.startsWith('workspace ')) return 'name';
    return undefined;
  }
  if (code !== 'invalid_request') return undefined;
  const path = /^body\.([A-Za-z]+)(\.[A-Za-z]+)?/.exec(message);
  switch (path?.[1]) {
    case 'name':
      return 'name';
    case 'displayName':
      return 'displayName';
    case 'namespace':
      return 'namespace';
    case 'roleBindings':
      return 'group';
    default:
      return undefined;
  }
}
