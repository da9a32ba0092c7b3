import type { KubeObject, ObjectMeta } from '@paddock/kube';

/** The fields of core v1 objects that the local node reads and writes. */

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';

export interface ContainerState {
  waiting?: { reason: string; message?: string };
  running?: { startedAt: string };
  terminated?: {
    exitCode: number;
    signal?: number;
    reason: string;
    startedAt: string;
    finishedAt: string;
  };
}

export interface ContainerStatus {
  name: string;
  image: string;
  ready: boolean;
  started: boolean;
  restartCount: number;
  state: ContainerState;
  lastState: ContainerState;
}

export interface PodCondition {
  type: string;
  status: 'True' | 'False';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface PodStatus {
  phase?: PodPhase;
  conditions?: PodCondition[];
  hostIP?: string;
  hostIPs?: { ip: string }[];
  podIP?: string;
  podIPs?: { ip: string }[];
  startTime?: string;
  containerStatuses?: ContainerStatus[];
}

export interface KeyRef {
  name: string;
  key: string;
  optional?: boolean;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    fieldRef?: { fieldPath: string; apiVersion?: string };
    secretKeyRef?: KeyRef;
    configMapKeyRef?: KeyRef;
  };
}

export interface HttpProbe {
  httpGet?: { path?: string; port: number | string; host?: string; scheme?: string };
  initialDelaySeconds?: number;
  periodSeconds?: number;
  timeoutSeconds?: number;
  failureThreshold?: number;
  successThreshold?: number;
}

export interface ContainerPort {
  name?: string;
  containerPort: number;
  protocol?: string;
}

export interface VolumeMount {
  name: string;
  mountPath: string;
  subPath?: string;
  readOnly?: boolean;
}

export interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  workingDir?: string;
  env?: EnvVar[];
  ports?: ContainerPort[];
  volumeMounts?: VolumeMount[];
  readinessProbe?: HttpProbe;
  livenessProbe?: HttpProbe;
}

/** A key of a ConfigMap or Secret as a file of a projected volume. */
export interface KeyToPath {
  key: string;
  path: string;
  mode?: number;
}

export interface DownwardApiFile {
  path: string;
  fieldRef?: { fieldPath: string; apiVersion?: string };
  resourceFieldRef?: { resource: string; containerName?: string };
  mode?: number;
}

export interface ProjectionSource {
  serviceAccountToken?: { path: string; audience?: string; expirationSeconds?: number };
  configMap?: { name: string; items?: KeyToPath[]; optional?: boolean };
  secret?: { name: string; items?: KeyToPath[]; optional?: boolean };
  downwardAPI?: { items?: DownwardApiFile[] };
  clusterTrustBundle?: unknown;
}

export interface Volume {
  name: string;
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
  emptyDir?: { medium?: string; sizeLimit?: string };
  projected?: { sources?: ProjectionSource[]; defaultMode?: number };
}

export interface Pod extends KubeObject {
  metadata: ObjectMeta;
  spec: {
    containers: Container[];
    volumes?: Volume[];
    nodeName?: string;
    /** The ServiceAccount its projected tokens are for; `default` when unset. */
    serviceAccountName?: string;
    automountServiceAccountToken?: boolean;
    restartPolicy?: 'Always' | 'OnFailure' | 'Never';
    terminationGracePeriodSeconds?: number;
  };
  status?: PodStatus;
}

export interface PersistentVolumeClaim extends KubeObject {
  metadata: ObjectMeta;
  spec: {
    accessModes?: string[];
    resources?: { requests?: { storage?: string } };
    storageClassName?: string;
  };
  status?: {
    phase?: 'Pending' | 'Bound' | 'Lost';
    accessModes?: string[];
    capacity?: { storage?: string };
  };
}

/** Where the API serves PersistentVolumeClaims. */
export const PERSISTENT_VOLUME_CLAIMS = {
  group: '',
  version: 'v1',
  kind: 'PersistentVolumeClaim',
  plural: 'persistentvolumeclaims',
  namespaced: true,
} as const;
