import { API_VERSION, type Workspace, type WorkspaceSpec } from '@paddock/kube';
import { hasOwner, parseAccessChange, type AccessSpec } from './members.js';

/** A new workspace as asked for: its name, then the Workspace spec with the namespace optional. */
export interface WorkspaceRequest extends Omit<WorkspaceSpec, 'namespace'> {
  name: string;
  namespace?: Partial<WorkspaceSpec['namespace']>;
}

/** Who creates a workspace, as direct grants name users. */
export interface Creator {
  username: string;
  /** An anonymous visitor is nobody in particular: it cannot be made an owner. */
  anonymous: boolean;
}

/**
 * The Workspace to create for a request already checked against the resource definition's schema:
 * - the namespace defaults to the workspace's name, created when missing (`create` true);
 * - the access fields are checked as an owner's change of them is (workspaces/members.ts);
 * - when they name nobody who could manage the members (an owner binding, an unexpired owner
 *   grant), the creator becomes the owner through a direct grant of their username.
 * Throws an Error naming the field when the request cannot be made a Workspace.
 */
export function workspaceToCreate(
  request: WorkspaceRequest,
  creator: Creator,
  now: Date,
): Workspace {
  const { name, namespace, roleBindings, directGrants, anonymousAccess, ...rest } = request;
  if (rest.displayName.trim() === '') throw new Error('displayName must not be blank');
  const access: AccessSpec = parseAccessChange(
    Object.fromEntries(
      Object.entries({ roleBindings, directGrants, anonymousAccess }).filter(
        ([, value]) => value !== undefined,
      ),
    ),
  );
  if (!hasOwner(access, now)) {
    if (creator.anonymous) {
      throw new Error(
        'roleBindings or directGrants must name an owner: an anonymous creator cannot own the workspace',
      );
    }
    access.directGrants = [
      ...(access.directGrants ?? []),
      { user: creator.username, role: 'owner' },
    ];
  }
  return {
    apiVersion: API_VERSION,
    kind: 'Workspace',
    metadata: { name },
    spec: {
      ...rest,
      namespace: { ...namespace, name: namespace?.name ?? name, create: namespace?.create ?? true },
      ...access,
    },
  };
}
