import { API_VERSION, type AgentRuntime } from '@paddock/kube';
import type { Pod, PodStatus } from '../../src/local-agents/pod.js';
import { agentPod } from '../../src/local-agents/replicas.js';

/** An AgentRuntime as the API server returns it (uid, generation, defaults). */
export function agent(spec: Partial<AgentRuntime['spec']> = {}, name = 'helper'): AgentRuntime {
  return {
    apiVersion: API_VERSION,
    kind: 'AgentRuntime',
    metadata: { name, namespace: 'team', uid: `uid-${name}`, generation: 3 },
    spec: {
      promptPackRef: { name: 'prompts' },
      replicas: 2,
      image: 'paddock-sandbox:latest',
      ...spec,
    },
  };
}

/** Replica `index` of the agent as the cluster keeps it, with a status. */
export function pod(of: AgentRuntime, index: number, status?: PodStatus): Pod {
  const made = agentPod(of, index, 40000 + index);
  return {
    ...made,
    metadata: { ...made.metadata, uid: `pod-uid-${index}` },
    ...(status ? { status } : {}),
  };
}

export const RUNNING: PodStatus = {
  phase: 'Running',
  conditions: [{ type: 'Ready', status: 'True' }],
};
