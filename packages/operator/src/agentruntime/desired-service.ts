import {
  AGENT_API_PORT,
  AGENT_API_PORT_NAME,
  AGENT_MCP_PORT,
  AGENT_MCP_PORT_NAME,
  AGENT_RUNS_PORT,
  AGENT_RUNS_PORT_NAME,
  type AgentRuntime,
} from '@paddock/kube';
import { runsAgentLoop } from './agent-container.js';
import { agentOwnedMetadata, agentSelectorLabels } from './agent-labels.js';
import type { ServiceObject } from './workload-objects.js';

/**
 * The headless Service of the agent's StatefulSet, of the same name: each replica gets the stable
 * name `<agent>-<ordinal>.<agent>.<namespace>.svc`. Ready pods only are published.
 */
export function desiredService(agent: AgentRuntime, workspace: string): ServiceObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: agentOwnedMetadata(agent, workspace),
    spec: {
      clusterIP: 'None',
      publishNotReadyAddresses: false,
      selector: agentSelectorLabels(agent),
      ports: [
        {
          name: AGENT_MCP_PORT_NAME,
          port: AGENT_MCP_PORT,
          targetPort: AGENT_MCP_PORT_NAME,
          protocol: 'TCP',
        },
        {
          name: AGENT_API_PORT_NAME,
          port: AGENT_API_PORT,
          targetPort: AGENT_API_PORT_NAME,
          protocol: 'TCP',
        },
        ...(runsAgentLoop(agent)
          ? [
              {
                name: AGENT_RUNS_PORT_NAME,
                port: AGENT_RUNS_PORT,
                targetPort: AGENT_RUNS_PORT_NAME,
                protocol: 'TCP' as const,
              },
            ]
          : []),
        ...(agent.spec.ports ?? []).map((p) => ({
          name: p.name,
          port: p.containerPort,
          targetPort: p.name,
          protocol: p.protocol ?? ('TCP' as const),
        })),
      ],
    },
  };
}
