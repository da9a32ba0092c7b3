import {
  AGENT_MCP_PORT,
  AGENT_RUNS_PORT,
  AGENT_RUNS_PORT_NAME,
  agentPodAudience,
  DEFAULT_API_KEY_SECRET_KEY,
  PROOF_SECRET_KEY,
  PROOF_SECRET_NAME,
  type AgentRuntime,
} from '@paddock/kube';
import type { Container, EnvVar, ProjectedVolume } from './workload-objects.js';

/**
 * The agent loop's part of an agent's pods, present when the AgentRuntime names a model provider
 * (docs/decisions/0031): a second container running `paddock-agent` from the same image, its own
 * claim for the runs' transcripts (out of the sandbox's reach), and the token of a ServiceAccount
 * of its own, mounted in that container only: the sandbox, where the model's commands run, gets
 * no credentials.
 */

export const AGENT_CONTAINER = 'agent';
/** The command of the agent container (the image's entrypoint is the sandbox). */
export const AGENT_COMMAND = 'paddock-agent';
/** Each replica's claim for the agent's runs: kept across restarts, unseen by the sandbox. */
export const AGENT_DATA_VOLUME = 'agent-data';
export const AGENT_DATA_MOUNT_PATH = '/var/lib/paddock-agent';
/** Transcripts are bounded by the run store (500 runs); a gibibyte holds thousands of typical ones. */
export const AGENT_DATA_SIZE = '1Gi';
/** The projected token, CA and namespace, where Kubernetes clients look for them. */
export const KUBE_API_VOLUME = 'kube-api-access';
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
/** The token's lifetime; the node renews it well before it ends. */
export const TOKEN_EXPIRATION_SECONDS = 3600;
/** The loop waits on the model and the sandbox: it needs little of either resource. */
export const AGENT_RESOURCES = {
  requests: { cpu: '50m', memory: '128Mi' },
  limits: { cpu: '500m', memory: '512Mi' },
} as const;

/** The agent's ServiceAccount, Role and RoleBinding share this name. */
export function agentAccountName(agent: AgentRuntime): string {
  return `${agent.metadata.name}-agent`;
}

/** Whether the agent's pods run the agent loop: only with a model provider to talk to. */
export function runsAgentLoop(agent: AgentRuntime): boolean {
  return agent.spec.provider !== undefined;
}

/** The projected volume of the agent container's Kubernetes credentials. */
export function kubeApiVolume(): ProjectedVolume {
  return {
    name: KUBE_API_VOLUME,
    projected: {
      sources: [
        { serviceAccountToken: { path: 'token', expirationSeconds: TOKEN_EXPIRATION_SECONDS } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        {
          downwardAPI: {
            items: [{ path: 'namespace', fieldRef: { fieldPath: 'metadata.namespace' } }],
          },
        },
      ],
    },
  };
}

function agentEnv(agent: AgentRuntime, namespace: string, podNameVar: string): EnvVar[] {
  const provider = agent.spec.provider!;
  const key = provider.apiKeySecretRef;
  return [
    { name: podNameVar, valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
    { name: 'PADDOCK_POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
    { name: 'SVC_AGENT_NAME', value: agent.metadata.name },
    { name: 'SVC_AGENT_NAMESPACE', value: namespace },
    { name: 'SVC_AGENT_PROVIDER', value: provider.type },
    ...(provider.baseURL === undefined
      ? []
      : [{ name: 'SVC_AGENT_PROVIDER_BASE_URL', value: provider.baseURL }]),
    ...(key === undefined
      ? []
      : [
          {
            name: 'SVC_AGENT_PROVIDER_API_KEY',
            valueFrom: {
              secretKeyRef: { name: key.name, key: key.key ?? DEFAULT_API_KEY_SECRET_KEY },
            },
          },
        ]),
    // The sandbox of the same pod, at the pod's address (it listens there, not on loopback, on
    // a node that runs pods as processes).
    { name: 'SVC_AGENT_SANDBOX_MCP_URL', value: `http://$(PADDOCK_POD_IP):${AGENT_MCP_PORT}/mcp` },
    { name: 'SVC_AGENT_DATA_DIR', value: AGENT_DATA_MOUNT_PATH },
    { name: 'SVC_AGENT_SERVICE_ACCOUNT_DIR', value: SERVICE_ACCOUNT_DIR },
    {
      name: 'SVC_API_PROOF_AUDIENCE',
      value: agentPodAudience(`$(${podNameVar})`, agent.metadata.name, namespace),
    },
    {
      name: 'SVC_API_PROOF_PUBLIC_KEY',
      valueFrom: { secretKeyRef: { name: PROOF_SECRET_NAME, key: PROOF_SECRET_KEY } },
    },
    { name: 'SVC_LOG_FORMAT', value: 'json' },
  ];
}

/** The agent loop's container: the sandbox's image and security context, its own command. */
export function agentContainer(
  agent: AgentRuntime,
  namespace: string,
  sandbox: Container,
  names: { podNameVar: string; tmpVolume: string },
): Container {
  return {
    name: AGENT_CONTAINER,
    image: sandbox.image,
    imagePullPolicy: sandbox.imagePullPolicy,
    command: [AGENT_COMMAND],
    args: ['--listen', `0.0.0.0:${AGENT_RUNS_PORT}`],
    env: agentEnv(agent, namespace, names.podNameVar),
    ports: [{ name: AGENT_RUNS_PORT_NAME, containerPort: AGENT_RUNS_PORT, protocol: 'TCP' }],
    readinessProbe: {
      ...sandbox.readinessProbe,
      httpGet: { path: '/readyz', port: AGENT_RUNS_PORT_NAME },
    },
    livenessProbe: {
      ...sandbox.livenessProbe,
      httpGet: { path: '/healthz', port: AGENT_RUNS_PORT_NAME },
    },
    resources: {
      requests: { ...AGENT_RESOURCES.requests },
      limits: { ...AGENT_RESOURCES.limits },
    },
    securityContext: sandbox.securityContext,
    volumeMounts: [
      { name: AGENT_DATA_VOLUME, mountPath: AGENT_DATA_MOUNT_PATH },
      { name: KUBE_API_VOLUME, mountPath: SERVICE_ACCOUNT_DIR, readOnly: true },
      // Temporary files, as the sandbox's.
      ...sandbox.volumeMounts.filter((m) => m.name === names.tmpVolume),
    ],
  };
}
