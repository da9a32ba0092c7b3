import type { DiscoveredTool, ToolHandler } from '@paddock/kube';
import type { ServiceObject } from '../endpoints.js';

/** What discovery needs besides the handler itself. */
export interface DiscoveryContext {
  /** The ToolRegistry's namespace. */
  namespace: string;
  /** The Services of that namespace, for selectors and serviceRefs; none when not listed. */
  services?: readonly ServiceObject[];
  /** Whether a serviceRef may name a Service in another namespace. */
  allowCrossNamespace?: boolean;
  /**
   * Whether mcp handlers with transport stdio may run their command inside the operator. Anyone who
   * can edit a ToolRegistry chooses that command, so it is off unless the operator is told otherwise.
   */
  allowStdio?: boolean;
}

/** A discovered tool as reported in status, with why it is not available when it is not. */
export type ToolReport = DiscoveredTool & {
  status: 'Available' | 'Unavailable' | 'Unknown';
  error?: string;
};

/** What discovering one handler found. */
export interface HandlerDiscovery {
  handlerName: string;
  tools: ToolReport[];
}

/** A handler's kind of discovery: resolves with the tools found, rejects when it cannot reach them. */
export type Discoverer = (
  handler: ToolHandler,
  url: string | undefined,
  context: DiscoveryContext,
) => Promise<ToolReport[]>;
