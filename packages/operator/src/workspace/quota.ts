import { GROUP, type Workspace } from '@paddock/kube';
import type { ResourceQuotaObject } from './kube-objects.js';
import { ownedMetadata } from './ownership.js';

export const QUOTA_NAME = 'workspace-quota';

/**
 * The ResourceQuota of spec.quotas, or undefined when nothing it covers is set (the controller then
 * deletes any it made). Arena limits and replicas per AgentRuntime are not namespace quotas: they are
 * enforced where those objects are created.
 */
export function desiredResourceQuota(workspace: Workspace): ResourceQuotaObject | undefined {
  const { compute, objects, agents } = workspace.spec.quotas ?? {};
  const entries: [string, string | number | undefined][] = [
    ['requests.cpu', compute?.requests?.cpu],
    ['requests.memory', compute?.requests?.memory],
    ['limits.cpu', compute?.limits?.cpu],
    ['limits.memory', compute?.limits?.memory],
    ['configmaps', objects?.configmaps],
    ['secrets', objects?.secrets],
    ['persistentvolumeclaims', objects?.persistentvolumeclaims],
    [`count/agentruntimes.${GROUP}`, agents?.maxAgentRuntimes],
  ];
  const hard: Record<string, string> = {};
  for (const [resource, amount] of entries) {
    if (amount !== undefined) hard[resource] = String(amount);
  }
  if (Object.keys(hard).length === 0) return undefined;
  return {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: ownedMetadata(workspace, QUOTA_NAME, workspace.spec.namespace.name),
    spec: { hard },
  };
}
