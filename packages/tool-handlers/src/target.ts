// What calling a discovered tool needs, per handler type: everything is resolved at discovery
// (addresses, schemas, credentials), so a call reads nothing from the cluster.

/** How an mcp handler is reached: over HTTP (as discovery connected), or a command run locally. */
export type McpConnection =
  | { transport: 'sse' | 'streamable-http'; url: string }
  | {
      transport: 'stdio';
      command: string;
      args: string[];
      workDir?: string;
      env?: Record<string, string>;
    };

export interface McpTarget {
  type: 'mcp';
  connection: McpConnection;
  /** The tool's name on the MCP server. */
  tool: string;
  timeoutMs: number;
}

export interface HttpTarget {
  type: 'http';
  url: string;
  method: string;
  headers: Record<string, string>;
  contentType: string;
  timeoutMs: number;
}

export type OpenApiParameterLocation = 'path' | 'query' | 'header';

export interface OpenApiTarget {
  type: 'openapi';
  method: string;
  /** The operation's URL with its `{path}` parameters left in place. */
  urlTemplate: string;
  /** The parameters read from the arguments by name; the other arguments are the body. */
  parameters: { name: string; in: OpenApiParameterLocation }[];
  /**
   * none: the operation takes no body; object: the remaining arguments are the JSON body;
   * wrapped: the body is not an object, so it is the `body` argument.
   */
  body: 'none' | 'object' | 'wrapped';
  /** The handler's extra headers and its Authorization header. */
  headers: Record<string, string>;
  timeoutMs: number;
}

/** TLS material read at discovery; null where the handler names no file. */
export interface GrpcTls {
  ca: Buffer | null;
  key: Buffer | null;
  cert: Buffer | null;
  insecureSkipVerify: boolean;
}

export interface GrpcTarget {
  type: 'grpc';
  /** host:port. */
  address: string;
  /** The tool name sent in ExecuteRequest. */
  tool: string;
  /** Absent for a plaintext connection. */
  tls?: GrpcTls;
  timeoutMs: number;
}

export type ToolTarget = McpTarget | HttpTarget | OpenApiTarget | GrpcTarget;

/** A discovered tool with what a model needs to use it and what a call needs to reach it. */
export interface CallableTool {
  handlerName: string;
  name: string;
  description: string;
  /** A JSON Schema object describing the arguments. */
  inputSchema: Record<string, unknown>;
  target: ToolTarget;
}

/** A tool's answer: its text, flagged when the tool failed. */
export interface CallResult {
  text: string;
  isError: boolean;
}

export interface CallOptions {
  /** Aborts the call; the call then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Overrides the handler's timeout. */
  timeoutMs?: number;
}
