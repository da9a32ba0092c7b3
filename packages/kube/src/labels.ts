import { GROUP } from './api-group.js';

/**
 * Label and annotation keys under the API group. Users may not set keys with this prefix on a
 * workspace's namespace or default tags: the controllers own them.
 */
export const RESERVED_PREFIX = `${GROUP}/` as const;

/** On a namespace, `"true"`: workspaces with allowSharedNamespaces may reach it. */
export const LABEL_SHARED = `${GROUP}/shared` as const;
/** On a Service, `"true"`: ToolRegistries discover it as a tool. */
export const LABEL_TOOL = `${GROUP}/tool` as const;
/** On a discovered Service: the tool's API path (default `/`). */
export const ANNOTATION_TOOL_PATH = `${GROUP}/tool-path` as const;
/** On a discovered Service: the tool's description (default the Service's name). */
export const ANNOTATION_TOOL_DESCRIPTION = `${GROUP}/tool-description` as const;
/** On a discovered Service: the handler type (default `http`). */
export const ANNOTATION_TOOL_TYPE = `${GROUP}/tool-type` as const;
/** On a pod: the AgentRuntime (same namespace) it runs a replica of. */
export const LABEL_AGENT = `${GROUP}/agent` as const;
