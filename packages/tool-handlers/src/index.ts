// ToolRegistry handlers (mcp, http, openapi, grpc): discovering their tools with their schemas,
// and calling them with their handler's protocol.
export {
  DEFAULT_TIMEOUT_MS,
  backoffMs,
  handlerRetries,
  handlerTimeoutMs,
  parseDuration,
  withRetries,
} from './timeouts.js';
export {
  discoveryService,
  referencedService,
  resolveEndpoint,
  selectServices,
  type EndpointOptions,
  type EndpointResolution,
  type HandlerType,
  type SelectedTool,
  type ServiceObject,
  type ServiceResource,
} from './endpoints.js';
export { namespaceServices } from './namespace-services.js';
export {
  discoverHandler,
  discoverHandlerTools,
  type DiscoveryContext,
  type HandlerDiscovery,
  type HandlerTools,
  type ToolReport,
} from './discover/index.js';
export { MAX_TOOL_LIST_PAGES } from './discover/mcp.js';
export { BODY_ARGUMENT } from './discover/openapi-operation.js';
export { callTool, ToolCaller, type ToolCallerOptions } from './call/index.js';
export { openApiRequest, type OpenApiRequest } from './call/openapi.js';
export { MAX_GRPC_MESSAGE_BYTES } from './call/grpc.js';
export { MAX_RESPONSE_BYTES, cutMarker, cutText } from './response-limit.js';
export { MAX_SCHEMA_DEPTH, acyclicSchema } from './json-schema.js';
export { errorMessage } from './error-message.js';
export { PROTO_DIR, toolProtocol, type ProtoTool, type ToolProtocol } from './tool-protocol.js';
export type {
  CallOptions,
  CallResult,
  CallableTool,
  GrpcTarget,
  GrpcTls,
  HttpTarget,
  McpConnection,
  McpTarget,
  OpenApiParameterLocation,
  OpenApiTarget,
  ToolTarget,
} from './target.js';
