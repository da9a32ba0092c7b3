import { agentOwnerReference, LABEL_AGENT, type AgentRuntime } from '@paddock/kube';
import {
  LABEL_MANAGED_BY,
  LABEL_WORKSPACE,
  MANAGED_BY,
  workspaceLabelValue,
} from '../workspace/ownership.js';
import type { OwnedMetadata } from './workload-objects.js';

/**
 * Names and labels of what an AgentRuntime makes: a StatefulSet and a headless Service, both
 * named after the agent, and pods that carry the agent's and the workspace's labels.
 */

export const LABEL_APP_NAME = 'app.kubernetes.io/name';
export const LABEL_APP_INSTANCE = 'app.kubernetes.io/instance';
export const LABEL_APP_COMPONENT = 'app.kubernetes.io/component';
export const LABEL_APP_PART_OF = 'app.kubernetes.io/part-of';
/** The app.kubernetes.io/name of every agent's pods. */
export const AGENT_APP_NAME = 'paddock-agent';

/**
 * The longest agent name that can become a StatefulSet: its pods' `controller-revision-hash`
 * label is `<name>-<10 characters>` and a label value holds at most 63 characters.
 */
export const MAX_AGENT_NAME_LENGTH = 52;
/** A Service name is a DNS-1035 label: lowercase letters, digits and '-', starting with a letter. */
const DNS_1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/** Why an agent's name cannot name its StatefulSet and Service, or undefined when it can. */
export function agentNameProblem(name: string): string | undefined {
  if (name.length > MAX_AGENT_NAME_LENGTH) {
    return `The name ${name} is ${name.length} characters long; an AgentRuntime that runs pods has at most ${MAX_AGENT_NAME_LENGTH}.`;
  }
  if (!DNS_1035_LABEL.test(name)) {
    return `The name ${name} cannot name a Service: use lowercase letters, digits and '-', starting with a letter and ending with a letter or digit.`;
  }
  return undefined;
}

/** The labels the StatefulSet selects its pods by (immutable once the StatefulSet exists). */
export function agentSelectorLabels(agent: AgentRuntime): Record<string, string> {
  return { [LABEL_APP_NAME]: AGENT_APP_NAME, [LABEL_AGENT]: agent.metadata.name };
}

/** `status.selector` of the AgentRuntime, for the scale subresource: the same labels as a string. */
export function agentSelector(agent: AgentRuntime): string {
  return Object.entries(agentSelectorLabels(agent))
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
}

/** Every label of the agent's objects and pods: the selector's, the workspace's, the app set. */
export function agentLabels(agent: AgentRuntime, workspace: string): Record<string, string> {
  return {
    ...agentSelectorLabels(agent),
    [LABEL_APP_INSTANCE]: agent.metadata.name,
    [LABEL_APP_COMPONENT]: 'agent',
    [LABEL_APP_PART_OF]: 'paddock',
    [LABEL_MANAGED_BY]: MANAGED_BY,
    [LABEL_WORKSPACE]: workspaceLabelValue(workspace),
  };
}

/** Metadata of an object the agent owns: deleting the agent deletes it (garbage collection). */
export function agentOwnedMetadata(agent: AgentRuntime, workspace: string): OwnedMetadata {
  const { name, namespace, uid } = agent.metadata;
  if (namespace === undefined || uid === undefined) {
    throw new Error(`AgentRuntime ${name} has no namespace or uid: read it from the API server`);
  }
  return {
    name,
    namespace,
    labels: agentLabels(agent, workspace),
    ownerReferences: [agentOwnerReference(name, uid)],
  };
}
