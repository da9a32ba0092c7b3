export {
  DEFAULT_TIMEOUT_MS,
  backoffMs,
  handlerRetries,
  handlerTimeoutMs,
  parseDuration,
  withRetries,
} from './timeouts.js';
export {
  resolveEndpoint,
  selectServices,
  type EndpointOptions,
  type EndpointResolution,
  type SelectedTool,
  type ServiceObject,
} from './endpoints.js';
export {
  discoverHandler,
  type DiscoveryContext,
  type HandlerDiscovery,
  type ToolReport,
} from './discover/index.js';
export {
  registryStatus,
  type RegistryPhase,
  type RegistryStatus,
  type RegistryStatusInput,
} from './registry-status.js';
export { PROTO_DIR, toolProtocol, type ProtoTool, type ToolProtocol } from './tool-protocol.js';
