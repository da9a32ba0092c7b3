import type { WorkspaceForAgents } from '../../agentruntime/index.js';

const conflicted = (workspace: WorkspaceForAgents) =>
  workspace.status?.conditions?.some(
    (c) => c.type === 'NamespaceReady' && c.reason === 'NamespaceConflict',
  ) === true;

/**
 * The Workspace an agent in `namespace` belongs to: the one naming that namespace. Should two name
 * it, the Workspace controller gives it to one and reports NamespaceConflict on the other; the one
 * without that condition wins, then the oldest.
 */
export function workspaceOfNamespace(
  workspaces: Iterable<WorkspaceForAgents>,
  namespace: string,
): WorkspaceForAgents | undefined {
  const naming: WorkspaceForAgents[] = [];
  for (const w of workspaces) if (w.spec.namespace.name === namespace) naming.push(w);
  return naming.sort(
    (a, b) =>
      Number(conflicted(a)) - Number(conflicted(b)) ||
      (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') ||
      a.metadata.name.localeCompare(b.metadata.name),
  )[0];
}
