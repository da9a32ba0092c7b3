// Discovery, endpoints, timeouts and the tool protocol live in @paddock/tool-handlers, shared with
// the agent that calls the tools; the status made from discovery is the operator's.
export {
  DEFAULT_TIMEOUT_MS,
  backoffMs,
  handlerRetries,
  handlerTimeoutMs,
  parseDuration,
  withRetries,
  resolveEndpoint,
  selectServices,
  discoverHandler,
  PROTO_DIR,
  toolProtocol,
  type EndpointOptions,
  type EndpointResolution,
  type SelectedTool,
  type ServiceObject,
  type DiscoveryContext,
  type HandlerDiscovery,
  type ToolReport,
  type ProtoTool,
  type ToolProtocol,
} from '@paddock/tool-handlers';
export {
  registryStatus,
  type RegistryPhase,
  type RegistryStatus,
  type RegistryStatusInput,
} from './registry-status.js';
