import type { KubeObject, ObjectMeta } from '@paddock/kube';

/** The fields of a core v1 Pod that the local agents write and read. */

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
  podIP?: string;
  podIPs?: { ip: string }[];
  startTime?: string;
  containerStatuses?: ContainerStatus[];
}

export interface Container {
  name: string;
  image: string;
  env?: { name: string; value?: string }[];
  ports?: { name?: string; containerPort: number; protocol?: string }[];
}

export interface Pod extends KubeObject {
  metadata: ObjectMeta;
  spec: {
    containers: Container[];
    nodeName?: string;
    restartPolicy?: string;
    terminationGracePeriodSeconds?: number;
  };
  status?: PodStatus;
}
