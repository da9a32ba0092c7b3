/**
 * The shapes of the built-in Kubernetes objects the AgentRuntime controller makes and reads,
 * limited to the fields it sets or looks at. They are plain JSON, ready to send to the API server.
 */

export interface OwnedMetadata {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences: {
    apiVersion: string;
    kind: string;
    name: string;
    uid: string;
    controller: true;
    blockOwnerDeletion: true;
  }[];
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?:
    | { secretKeyRef: { name: string; key: string; optional?: boolean } }
    | { fieldRef: { fieldPath: string } };
}

export interface ContainerPort {
  name: string;
  containerPort: number;
  protocol: 'TCP' | 'UDP';
}

export interface HttpProbe {
  httpGet: { path: string; port: string };
  initialDelaySeconds?: number;
  periodSeconds: number;
  timeoutSeconds: number;
  failureThreshold: number;
}

export interface ResourceAmounts {
  cpu: string;
  memory: string;
}

export interface Container {
  name: string;
  image: string;
  imagePullPolicy: 'IfNotPresent';
  /** Absent: the image's entrypoint (the sandbox). */
  command?: string[];
  args: string[];
  env: EnvVar[];
  ports: ContainerPort[];
  readinessProbe: HttpProbe;
  livenessProbe: HttpProbe;
  resources: { requests: ResourceAmounts; limits: ResourceAmounts };
  securityContext: {
    allowPrivilegeEscalation: false;
    readOnlyRootFilesystem: true;
    runAsNonRoot: true;
    capabilities: { drop: ['ALL'] };
    seccompProfile: { type: 'RuntimeDefault' };
  };
  volumeMounts: { name: string; mountPath: string; readOnly?: true }[];
}

export interface EmptyDirVolume {
  name: string;
  emptyDir: { sizeLimit: string };
}

/** A projected volume: a ServiceAccount token, a ConfigMap's entries, the pod's own fields. */
export interface ProjectedVolume {
  name: string;
  projected: {
    sources: (
      | { serviceAccountToken: { path: string; expirationSeconds: number } }
      | { configMap: { name: string; items: { key: string; path: string }[] } }
      | { downwardAPI: { items: { path: string; fieldRef: { fieldPath: string } }[] } }
    )[];
  };
}

export interface ClaimTemplate {
  metadata: { name: string; labels: Record<string, string> };
  spec: {
    accessModes: ['ReadWriteOnce'];
    resources: { requests: { storage: string } };
    storageClassName?: string;
  };
}

export interface StatefulSetObject {
  apiVersion: 'apps/v1';
  kind: 'StatefulSet';
  metadata: OwnedMetadata;
  spec: {
    replicas: number;
    serviceName: string;
    selector: { matchLabels: Record<string, string> };
    podManagementPolicy: 'Parallel';
    updateStrategy: { type: 'RollingUpdate' };
    persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete'; whenScaled: 'Retain' };
    template: {
      metadata: { labels: Record<string, string>; annotations: Record<string, string> };
      spec: {
        /** Set with the agent loop: its container's own identity (its token is mounted there only). */
        serviceAccountName?: string;
        automountServiceAccountToken: false;
        enableServiceLinks: false;
        terminationGracePeriodSeconds: number;
        securityContext: {
          runAsNonRoot: true;
          runAsUser: number;
          runAsGroup: number;
          fsGroup: number;
          seccompProfile: { type: 'RuntimeDefault' };
        };
        /** The sandbox, then the agent loop when there is one. */
        containers: [Container, ...Container[]];
        volumes: (EmptyDirVolume | ProjectedVolume)[];
      };
    };
    /** The workspace's, then the agent loop's when there is one. */
    volumeClaimTemplates: [ClaimTemplate, ...ClaimTemplate[]];
  };
}

export interface ServiceObject {
  apiVersion: 'v1';
  kind: 'Service';
  metadata: OwnedMetadata;
  spec: {
    clusterIP: 'None';
    publishNotReadyAddresses: false;
    selector: Record<string, string>;
    ports: { name: string; port: number; targetPort: string; protocol: 'TCP' | 'UDP' }[];
  };
}

/** What the status computation reads of the agent's StatefulSet. */
export interface ObservedStatefulSet {
  metadata: { generation?: number };
  spec?: { replicas?: number };
  status?: {
    observedGeneration?: number;
    replicas?: number;
    readyReplicas?: number;
    updatedReplicas?: number;
    currentRevision?: string;
    updateRevision?: string;
  };
}

/** What the status computation reads of one of the agent's pods. */
export interface ObservedPod {
  metadata: { name: string };
  status?: {
    phase?: string;
    containerStatuses?: {
      name: string;
      ready?: boolean;
      restartCount?: number;
      state?: {
        waiting?: { reason?: string; message?: string };
        terminated?: { reason?: string; exitCode?: number; message?: string };
      };
    }[];
  };
}
