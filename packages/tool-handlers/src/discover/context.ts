import type { DiscoveredTool, ToolHandler } from '@paddock/kube';
import type { ServiceObject } from '../endpoints.js';
import type { CallableTool } from '../target.js';

/** What discovery needs besides the handler itself. */
export interface DiscoveryContext {
  /** The ToolRegistry's namespace. */
  namespace: string;
  /** The Services of that namespace, for selectors and serviceRefs; none when not listed. */
  services?: readonly ServiceObject[];
  /** Whether a serviceRef may name a Service in another namespace. */
  allowCrossNamespace?: boolean;
  /**
   * Whether mcp handlers with transport stdio may run their command in this process's place.
   * Anyone who can edit a ToolRegistry chooses that command, so it is off unless asked for.
   */
  allowStdio?: boolean;
}

/** A discovered tool as reported in status, with why it is not available when it is not. */
export type ToolReport = DiscoveredTool & {
  status: 'Available' | 'Unavailable' | 'Unknown';
  error?: string;
};

/** What discovering one handler found, as status reports it. */
export interface HandlerDiscovery {
  handlerName: string;
  tools: ToolReport[];
}

/** What discovering one handler found, with the Available tools ready to call. */
export interface HandlerTools extends HandlerDiscovery {
  callable: CallableTool[];
}

/** What one kind of discovery finds: each tool's report and, when Available, how to call it. */
export type Found = { report: ToolReport; callable?: CallableTool }[];

/** A tool found Available, with its report made from the callable tool. */
export function available(endpoint: string, callable: CallableTool): Found[number] {
  return {
    report: {
      handlerName: callable.handlerName,
      name: callable.name,
      status: 'Available',
      endpoint,
    },
    callable,
  };
}

export type { ToolHandler };
