import type { Workspace } from '@paddock/kube';
import {
  ANNOTATION_NAMESPACE_CREATED,
  ANNOTATION_OWNER_UID,
  ANNOTATION_OWNER_WORKSPACE,
  LABEL_MANAGED_BY,
  LABEL_WORKSPACE,
  QUOTA_NAME,
  isOwnedBy,
  agentPodsPolicyName,
  isolationPolicyName,
  namespaceCreatedByWorkspace,
  ownedSelector,
  serviceAccountNames,
} from '../../workspace/index.js';
import type { WorkspaceClients } from './clients.js';
import { deleteIfExists, getIfExists } from './ensure-object.js';

export type NamespaceOutcome = 'deleted' | 'released' | 'untouched';

/**
 * Removes what the Workspace made, in order: the isolation policy, the quota, the RoleBindings,
 * the ServiceAccounts, then the namespace only if the Workspace created it. An adopted namespace is
 * released instead (its ownership entries removed) so that another Workspace may adopt it. Only
 * objects carrying this Workspace's ownership entries are touched; any failure throws, and the
 * caller keeps the finalizer and retries.
 */
export async function removeWorkspaceObjects(
  clients: WorkspaceClients,
  workspace: Workspace,
): Promise<NamespaceOutcome> {
  const namespace = workspace.spec.namespace.name;
  for (const name of [isolationPolicyName(workspace), agentPodsPolicyName(workspace)]) {
    const policy = await getIfExists(clients.networkPolicies, name, namespace);
    if (policy && isOwnedBy(policy, workspace)) {
      await deleteIfExists(clients.networkPolicies, name, namespace);
    }
  }
  const quota = await getIfExists(clients.resourceQuotas, QUOTA_NAME, namespace);
  if (quota && isOwnedBy(quota, workspace)) {
    await deleteIfExists(clients.resourceQuotas, QUOTA_NAME, namespace);
  }
  const bindings = await clients.roleBindings.listAll({
    namespace,
    labelSelector: ownedSelector(workspace),
  });
  for (const binding of bindings.items) {
    if (isOwnedBy(binding, workspace)) {
      await deleteIfExists(clients.roleBindings, binding.metadata.name, namespace);
    }
  }
  for (const name of Object.values(serviceAccountNames())) {
    const account = await getIfExists(clients.serviceAccounts, name, namespace);
    if (account && isOwnedBy(account, workspace)) {
      await deleteIfExists(clients.serviceAccounts, name, namespace);
    }
  }

  const found = await getIfExists(clients.namespaces, namespace);
  if (found === undefined || !isOwnedBy(found, workspace)) return 'untouched';
  if (namespaceCreatedByWorkspace(found)) {
    await deleteIfExists(clients.namespaces, namespace);
    return 'deleted';
  }
  const labels = { ...found.metadata.labels };
  const annotations = { ...found.metadata.annotations };
  delete labels[LABEL_WORKSPACE];
  delete labels[LABEL_MANAGED_BY];
  delete annotations[ANNOTATION_OWNER_WORKSPACE];
  delete annotations[ANNOTATION_OWNER_UID];
  delete annotations[ANNOTATION_NAMESPACE_CREATED];
  await clients.namespaces.replace({
    ...found,
    metadata: { ...found.metadata, labels, annotations },
  });
  return 'released';
}
