import {
  AGENT_API_PORT,
  AGENT_MCP_PORT,
  AGENT_RUNS_PORT,
  type AgentRuntime,
  type Workspace,
} from '@paddock/kube';
import { runsAgentLoop } from './agent-container.js';
import type {
  LabelSelector,
  NetworkPolicyEgressRule,
  NetworkPolicyIngressRule,
  NetworkPolicyPort,
} from '../workspace/kube-objects.js';
import {
  DEFAULT_PLATFORM_NAMESPACE,
  isolationRules,
  namespaceNamed,
} from '../workspace/network-policy.js';
import { LABEL_APP_NAME, agentOwnedMetadata, agentSelectorLabels } from './agent-labels.js';
import type { OwnedMetadata } from './workload-objects.js';
import type { WorkspaceForAgents } from './workspace-for-agents.js';

/** The app.kubernetes.io/name of the dashboard's pods (deploy/base/dashboard.yaml). */
export const DASHBOARD_APP_NAME = 'paddock-dashboard';

export interface AgentNetworkPolicyObject {
  apiVersion: 'networking.k8s.io/v1';
  kind: 'NetworkPolicy';
  metadata: OwnedMetadata;
  spec: {
    podSelector: LabelSelector;
    policyTypes: ['Ingress'] | ['Ingress', 'Egress'];
    ingress: NetworkPolicyIngressRule[];
    egress?: NetworkPolicyEgressRule[];
  };
}

export interface AgentNetworkPolicyInputs {
  agent: AgentRuntime;
  /** The Workspace of the agent's namespace: its networkPolicy decides who else gets in. */
  workspace: WorkspaceForAgents | Workspace;
  /** Where the dashboard runs (SVC_OPERATOR_NAMESPACE). */
  platformNamespace?: string;
}

export function agentNetworkPolicyName(agent: AgentRuntime): string {
  return `agent-${agent.metadata.name}`;
}

/**
 * The agent's NetworkPolicy (docs/decisions/0023). The sandbox's ports take the dashboard's pods
 * only: it authenticates every user and signs the human API's identity proofs, and the MCP listener
 * checks no caller. The ports the agent declares (spec.ports) take what its workspace lets in: those
 * the isolation rules admit when it isolates, anyone when it does not. The agent loop's runs port,
 * when there is one, is the dashboard's too. An isolating workspace's
 * egress rules hold for the agent's pods too, since the isolation policy leaves them to this one.
 */
export function desiredAgentNetworkPolicy({
  agent,
  workspace,
  platformNamespace = DEFAULT_PLATFORM_NAMESPACE,
}: AgentNetworkPolicyInputs): AgentNetworkPolicyObject {
  const dashboard: NetworkPolicyIngressRule = {
    from: [
      {
        ...namespaceNamed(platformNamespace),
        podSelector: { matchLabels: { [LABEL_APP_NAME]: DASHBOARD_APP_NAME } },
      },
    ],
    ports: [
      { protocol: 'TCP', port: AGENT_MCP_PORT },
      { protocol: 'TCP', port: AGENT_API_PORT },
      ...(runsAgentLoop(agent) ? [{ protocol: 'TCP' as const, port: AGENT_RUNS_PORT }] : []),
    ],
  };
  const declared: NetworkPolicyPort[] = (agent.spec.ports ?? []).map((p) => ({
    protocol: p.protocol ?? 'TCP',
    port: p.containerPort,
  }));
  const rules = isolationRules(workspace, { platformNamespace });
  const metadata = {
    ...agentOwnedMetadata(agent, workspace.metadata.name),
    name: agentNetworkPolicyName(agent),
  };
  const podSelector = { matchLabels: agentSelectorLabels(agent) };

  const spec: AgentNetworkPolicyObject['spec'] =
    rules === undefined
      ? {
          podSelector,
          policyTypes: ['Ingress'],
          ingress: [dashboard, ...(declared.length > 0 ? [{ ports: declared }] : [])],
        }
      : {
          podSelector,
          policyTypes: ['Ingress', 'Egress'],
          ingress: [dashboard, ...onDeclaredPorts(rules.ingress, declared)],
          egress: rules.egress,
        };
  return { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata, spec };
}

/**
 * The workspace's ingress rules, each narrowed to the declared ports it covers; a rule covering
 * none is dropped, so that a rule never widens to every port.
 */
function onDeclaredPorts(
  rules: readonly NetworkPolicyIngressRule[],
  declared: readonly NetworkPolicyPort[],
): NetworkPolicyIngressRule[] {
  return rules.flatMap((rule) => {
    const ports = declared.filter(
      (port) =>
        rule.ports === undefined ||
        rule.ports.some(
          (allowed) =>
            allowed.protocol === port.protocol &&
            (allowed.port === undefined || allowed.port === port.port),
        ),
    );
    if (ports.length === 0) return [];
    return [{ ...(rule.from && { from: rule.from }), ports }];
  });
}
