import type { Container, Pod } from '../../src/local-node/pod.js';

/** The container the operator makes for an agent's pods (desired-statefulset.ts), as it reaches a node. */
export const SANDBOX_CONTAINER: Container = {
  name: 'sandbox',
  image: 'paddock-sandbox:latest',
  args: [
    '-addr',
    '0.0.0.0:7070',
    '-allow-unauthenticated-mcp',
    '-api-addr',
    '0.0.0.0:7071',
    '-enable-api',
    '-workspace',
    '/workspace',
  ],
  env: [
    { name: 'PADDOCK_POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
    { name: 'SVC_API_PROOF_AUDIENCE', value: '$(PADDOCK_POD_NAME).web.team.svc' },
    {
      name: 'SVC_API_PROOF_PUBLIC_KEY',
      valueFrom: { secretKeyRef: { name: 'paddock-sandbox-proof', key: 'public-key' } },
    },
  ],
  ports: [
    { name: 'mcp', containerPort: 7070 },
    { name: 'api', containerPort: 7071 },
  ],
  volumeMounts: [
    { name: 'workspace', mountPath: '/workspace' },
    { name: 'tmp', mountPath: '/tmp' },
  ],
  readinessProbe: { httpGet: { path: '/readyz', port: 'mcp' }, periodSeconds: 5 },
};

/** A StatefulSet's pod of that container, bound to the local node. */
export function sandboxPod(container: Container = SANDBOX_CONTAINER): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web-0',
      namespace: 'team',
      uid: 'uid-web-0',
      labels: { app: 'web', 'statefulset.kubernetes.io/pod-name': 'web-0' },
      annotations: { 'paddock.dev/prompt-pack': 'prompts@7' },
    },
    spec: {
      nodeName: 'paddock-local',
      containers: [container],
      volumes: [
        { name: 'tmp', emptyDir: { sizeLimit: '1Gi' } },
        { name: 'workspace', persistentVolumeClaim: { claimName: 'workspace-web-0' } },
      ],
    },
  };
}
