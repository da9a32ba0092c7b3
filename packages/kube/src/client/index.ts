export {
  Kube,
  MIN_TOKEN_SECONDS,
  DEFAULT_TOKEN_SECONDS,
  type KubeEvent,
  type LogOptions,
} from './cluster.js';
export { loadKubeConfig, type ClusterTarget } from './kube-config.js';
export { ClusterConfig, type Connection, type TlsFacts } from './cluster-config.js';
export { CORE_KINDS, apiVersionOf, resourcePath, type ApiResource } from './kinds.js';
export {
  ResourceClient,
  type KubeObject,
  type ListOptions,
  type ObjectList,
  type WatchEvent,
} from './resource-client.js';
export {
  Informer,
  identityOnly,
  withoutManagedFields,
  type InformerEvent,
  type InformerHandler,
  type InformerTransform,
  type ObjectIdentity,
} from './informer.js';
export {
  WorkQueue,
  retryDelayMs,
  outcomeOf,
  nextLookMs,
  DEFAULT_BASE_RETRY_MS,
  DEFAULT_MAX_RETRY_MS,
  type KeyHandler,
  type ProcessOutcome,
  type ProcessResult,
  type QueueClock,
  type WorkQueueOptions,
} from './work-queue.js';
export { AgentPool, RestClient, PATCH_TYPES, type PatchType } from './rest.js';
export {
  KubeError,
  NotFoundError,
  ConflictError,
  AlreadyExistsError,
  ForbiddenError,
  UnauthorizedError,
  InvalidError,
  GoneError,
  UnavailableError,
} from './errors.js';
export { installCrds } from './install-crds.js';
export {
  EventRecorder,
  kubeTime,
  DEFAULT_AGGREGATION_WINDOW_MS,
  type EventType,
  type EventRecorderOptions,
} from './events.js';
