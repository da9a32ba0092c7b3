export { startCluster, type ClusterOptions, type RunningCluster } from './cluster.js';
export { kubeconfig, CONTEXT_NAME } from './kubeconfig.js';
export type { KubeObject, UserInfo } from './contracts.js';
