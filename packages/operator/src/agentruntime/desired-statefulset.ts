import {
  agentPodAudience,
  AGENT_API_PORT,
  AGENT_API_PORT_NAME,
  AGENT_MCP_PORT,
  AGENT_MCP_PORT_NAME,
  DEFAULT_AGENT_IMAGE,
  DEFAULT_AGENT_STORAGE_SIZE,
  GROUP,
  PROOF_SECRET_KEY,
  PROOF_SECRET_NAME,
  type AgentRuntime,
} from '@paddock/kube';
import {
  AGENT_DATA_SIZE,
  AGENT_DATA_VOLUME,
  agentAccountName,
  agentContainer,
  kubeApiVolume,
  runsAgentLoop,
} from './agent-container.js';
import { agentLabels, agentOwnedMetadata, agentSelectorLabels } from './agent-labels.js';
import type { AgentWorkspace } from './effective-replicas.js';
import { effectiveReplicas } from './effective-replicas.js';
import type {
  ClaimTemplate,
  Container,
  ContainerPort,
  EnvVar,
  ResourceAmounts,
  StatefulSetObject,
} from './workload-objects.js';

/** The first container of an agent's pods (the agent loop's is the second, when there is one). */
export const SANDBOX_CONTAINER = 'sandbox';
/** The volumeClaimTemplate of each replica's workspace, and where the sandbox serves it. */
export const WORKSPACE_VOLUME = 'workspace';
export const WORKSPACE_MOUNT_PATH = '/workspace';
/** The root filesystem is read-only: /tmp is an emptyDir of at most this size. */
export const TMP_VOLUME = 'tmp';
export const TMP_MOUNT_PATH = '/tmp';
export const TMP_SIZE_LIMIT = '1Gi';
/**
 * The sandbox user's home (the image's HOME) is an emptyDir of its own, so that the programs an
 * agent runs (git, npm, pip) can write their configuration and caches under a read-only root.
 */
export const HOME_VOLUME = 'home';
export const HOME_MOUNT_PATH = '/home/sandbox';
export const HOME_SIZE_LIMIT = '2Gi';
/** The sandbox image's own user and group (deploy/images/Dockerfile, target sandbox). */
export const SANDBOX_UID = 10001;
/** Above the sandbox's one shutdown grace budget (SVC_SHUTDOWN_GRACE_MS, 10 s). */
export const TERMINATION_GRACE_SECONDS = 15;

/** On the pod template: the PromptPack's name and version, so a changed pack rolls the pods. */
export const ANNOTATION_PROMPT_PACK = `${GROUP}/prompt-pack`;
/** On the pod template: which identity-proof public key the pods read, so a new key rolls them. */
export const ANNOTATION_PROOF_KEY = `${GROUP}/proof-key`;
/** The Secret in the agent's namespace holding the proof public key, and its entry. */
export { PROOF_SECRET_NAME, PROOF_SECRET_KEY };
/** Downward API: the pod's own name, from which its stable DNS name (the proof audience) is built. */
export const ENV_POD_NAME = 'PADDOCK_POD_NAME';
/** The model of spec.model, for the agent's programs. */
export const ENV_MODEL = 'PADDOCK_MODEL';

/**
 * Per resource, what a replica gets when spec.resources names neither a request nor a limit: room
 * for the sandbox (about 100 MiB resident) and the tools an agent runs in it.
 */
export const DEFAULT_RESOURCES = {
  requests: { cpu: '250m', memory: '256Mi' },
  limits: { cpu: '1', memory: '1Gi' },
} as const;

/** Readiness and liveness on the MCP listener's health routes. */
export const READINESS_PROBE = {
  periodSeconds: 5,
  timeoutSeconds: 3,
  failureThreshold: 3,
} as const;
export const LIVENESS_PROBE = {
  initialDelaySeconds: 10,
  periodSeconds: 10,
  timeoutSeconds: 3,
  failureThreshold: 3,
} as const;

/** The PromptPack an agent follows, as far as its pods are concerned. */
export interface PromptPackVersion {
  name: string;
  /** Its resourceVersion, or a hash of its spec: any change rolls the pods. */
  version: string;
}

/** Everything the desired StatefulSet depends on. */
export interface AgentWorkloadInputs {
  agent: AgentRuntime;
  workspace: AgentWorkspace;
  /** Undefined while the PromptPack does not exist (the annotation then says so). */
  promptPack?: PromptPackVersion | undefined;
  /**
   * A fingerprint of the identity-proof public key the pods read at start: a new key changes the
   * template, so the pods restart with it. Without it the template carries no such annotation.
   */
  proofKey?: string | undefined;
}

/** The sandbox's command line for the features of spec.sandbox (all on by default). */
export function sandboxArgs(agent: AgentRuntime): string[] {
  const features = agent.spec.sandbox ?? {};
  return [
    '-addr',
    `0.0.0.0:${AGENT_MCP_PORT}`,
    // The agent's NetworkPolicy (only the dashboard) is the enforcement; SVC_MCP_TOKEN in spec.env adds a token.
    '-allow-unauthenticated-mcp',
    '-api-addr',
    `0.0.0.0:${AGENT_API_PORT}`,
    '-enable-api',
    ...(features.exec === false ? [] : ['-enable-exec']),
    ...(features.portForward === false ? [] : ['-enable-port-forward']),
    ...(features.ssh === false ? [] : ['-enable-ssh']),
    '-workspace',
    WORKSPACE_MOUNT_PATH,
  ];
}

/** The environment: spec.env (sorted) less the names the controller sets, then the controller's. */
function sandboxEnv(agent: AgentRuntime, namespace: string): EnvVar[] {
  const own: EnvVar[] = [
    { name: ENV_POD_NAME, valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
    // Dependent variable expansion: each pod's audience is its own stable DNS name.
    {
      name: 'SVC_API_PROOF_AUDIENCE',
      value: agentPodAudience(`$(${ENV_POD_NAME})`, agent.metadata.name, namespace),
    },
    {
      name: 'SVC_API_PROOF_PUBLIC_KEY',
      valueFrom: { secretKeyRef: { name: PROOF_SECRET_NAME, key: PROOF_SECRET_KEY } },
    },
    { name: 'SVC_LOG_FORMAT', value: 'json' },
    // The image's HOME, said again so that a node that rewrites mount paths moves it with the mount.
    { name: 'HOME', value: HOME_MOUNT_PATH },
    ...(agent.spec.model === undefined ? [] : [{ name: ENV_MODEL, value: agent.spec.model }]),
  ];
  const taken = new Set(own.map((e) => e.name));
  const user = Object.entries(agent.spec.env ?? {})
    .filter(([name]) => !taken.has(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => ({ name, value }));
  return [...user, ...own];
}

type Amount = number | string | undefined;

/** One resource's request and limit: a missing one takes the other; with neither, the defaults. */
function requestAndLimit(
  request: Amount,
  limit: Amount,
  fallback: [string, string],
): [string, string] {
  if (request === undefined && limit === undefined) return fallback;
  const r = String(request ?? limit);
  const l = String(limit ?? request);
  return [r, l];
}

/** The container's resources from spec.resources, completed per resource (see DEFAULT_RESOURCES). */
export function agentResources(agent: AgentRuntime): {
  requests: ResourceAmounts;
  limits: ResourceAmounts;
} {
  const { requests, limits } = agent.spec.resources ?? {};
  const [cpuRequest, cpuLimit] = requestAndLimit(requests?.cpu, limits?.cpu, [
    DEFAULT_RESOURCES.requests.cpu,
    DEFAULT_RESOURCES.limits.cpu,
  ]);
  const [memoryRequest, memoryLimit] = requestAndLimit(requests?.memory, limits?.memory, [
    DEFAULT_RESOURCES.requests.memory,
    DEFAULT_RESOURCES.limits.memory,
  ]);
  return {
    requests: { cpu: cpuRequest, memory: memoryRequest },
    limits: { cpu: cpuLimit, memory: memoryLimit },
  };
}

function containerPorts(agent: AgentRuntime): ContainerPort[] {
  return [
    { name: AGENT_MCP_PORT_NAME, containerPort: AGENT_MCP_PORT, protocol: 'TCP' },
    { name: AGENT_API_PORT_NAME, containerPort: AGENT_API_PORT, protocol: 'TCP' },
    ...(agent.spec.ports ?? []).map((p) => ({
      name: p.name,
      containerPort: p.containerPort,
      protocol: p.protocol ?? 'TCP',
    })),
  ];
}

/** The annotation value naming the PromptPack and its version (`<name>@<version>`). */
export function promptPackAnnotation(
  agent: AgentRuntime,
  promptPack: PromptPackVersion | undefined,
): string {
  return promptPack === undefined
    ? `${agent.spec.promptPackRef.name}@missing`
    : `${promptPack.name}@${promptPack.version}`;
}

/** A claim template of the agent's: the agent's selector labels, ReadWriteOnce. */
function claimTemplate(
  agent: AgentRuntime,
  name: string,
  size: string,
  storageClassName: string | undefined,
): ClaimTemplate {
  return {
    metadata: { name, labels: agentSelectorLabels(agent) },
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: size } },
      ...(storageClassName === undefined ? {} : { storageClassName }),
    },
  };
}

/**
 * The StatefulSet that runs the agent's replicas, each a sandbox over its own workspace volume,
 * and with a model provider the agent loop beside it (agent-container.ts).
 */
export function desiredStatefulSet(inputs: AgentWorkloadInputs): StatefulSetObject {
  const { agent, workspace, promptPack, proofKey } = inputs;
  const metadata = agentOwnedMetadata(agent, workspace.name);
  const labels = agentLabels(agent, workspace.name);
  const storage = agent.spec.storage ?? {};
  const container: Container = {
    name: SANDBOX_CONTAINER,
    image: agent.spec.image ?? DEFAULT_AGENT_IMAGE,
    imagePullPolicy: 'IfNotPresent',
    args: sandboxArgs(agent),
    env: sandboxEnv(agent, metadata.namespace),
    ports: containerPorts(agent),
    readinessProbe: { httpGet: { path: '/readyz', port: AGENT_MCP_PORT_NAME }, ...READINESS_PROBE },
    livenessProbe: { httpGet: { path: '/healthz', port: AGENT_MCP_PORT_NAME }, ...LIVENESS_PROBE },
    resources: agentResources(agent),
    securityContext: {
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    },
    volumeMounts: [
      { name: WORKSPACE_VOLUME, mountPath: WORKSPACE_MOUNT_PATH },
      { name: TMP_VOLUME, mountPath: TMP_MOUNT_PATH },
      { name: HOME_VOLUME, mountPath: HOME_MOUNT_PATH },
    ],
  };
  const loop = runsAgentLoop(agent);
  const storageClass = storage.storageClassName;
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata,
    spec: {
      replicas: effectiveReplicas(agent, workspace).replicas,
      serviceName: metadata.name,
      selector: { matchLabels: agentSelectorLabels(agent) },
      podManagementPolicy: 'Parallel',
      updateStrategy: { type: 'RollingUpdate' },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' },
      template: {
        metadata: {
          labels,
          annotations: {
            [ANNOTATION_PROMPT_PACK]: promptPackAnnotation(agent, promptPack),
            ...(proofKey === undefined ? {} : { [ANNOTATION_PROOF_KEY]: proofKey }),
          },
        },
        spec: {
          ...(loop ? { serviceAccountName: agentAccountName(agent) } : {}),
          automountServiceAccountToken: false,
          enableServiceLinks: false,
          terminationGracePeriodSeconds: TERMINATION_GRACE_SECONDS,
          securityContext: {
            runAsNonRoot: true,
            runAsUser: SANDBOX_UID,
            runAsGroup: SANDBOX_UID,
            fsGroup: SANDBOX_UID,
            seccompProfile: { type: 'RuntimeDefault' },
          },
          containers: loop
            ? [
                container,
                agentContainer(agent, metadata.namespace, container, {
                  podNameVar: ENV_POD_NAME,
                  tmpVolume: TMP_VOLUME,
                }),
              ]
            : [container],
          volumes: [
            { name: TMP_VOLUME, emptyDir: { sizeLimit: TMP_SIZE_LIMIT } },
            { name: HOME_VOLUME, emptyDir: { sizeLimit: HOME_SIZE_LIMIT } },
            ...(loop ? [kubeApiVolume()] : []),
          ],
        },
      },
      volumeClaimTemplates: [
        claimTemplate(
          agent,
          WORKSPACE_VOLUME,
          String(storage.size ?? DEFAULT_AGENT_STORAGE_SIZE),
          storageClass,
        ),
        ...(loop ? [claimTemplate(agent, AGENT_DATA_VOLUME, AGENT_DATA_SIZE, storageClass)] : []),
      ],
    },
  };
}
