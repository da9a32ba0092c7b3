import { dereference } from '@readme/openapi-parser';
import type { ToolHandler } from '@paddock/kube';
import { parse as parseYaml } from 'yaml';
import { handlerTimeoutMs } from '../timeouts.js';
import { available, type Found } from './context.js';
import { operationTool, type OperationObject } from './openapi-operation.js';

type OpenAPIConfig = NonNullable<ToolHandler['openAPIConfig']>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** The fields of an OpenAPI 3.x or Swagger 2.0 document that tools are made from. */
export interface ApiDocument {
  openapi?: string;
  swagger?: string;
  servers?: { url?: string; variables?: Record<string, { default?: string }> }[];
  host?: string;
  basePath?: string;
  schemes?: string[];
  paths?: Record<string, PathItem>;
}

type PathItem = Partial<Record<string, OperationObject | undefined>> & {
  parameters?: OperationObject['parameters'];
};

/** One operation of the document, as a tool. */
export interface Operation {
  name: string;
  method: string;
  path: string;
  url: string;
  operation: OperationObject;
  /** The parameters the path declares for all its operations. */
  pathParameters: OperationObject['parameters'];
}

/**
 * Fetches an openapi handler's document (with its headers and credentials), resolves its $refs,
 * and reports one tool per operation the filter keeps. A fetched, well-formed document means the
 * service is up, so its tools are Available.
 */
export async function discoverOpenApi(handler: ToolHandler): Promise<Found> {
  const config = handler.openAPIConfig;
  if (config === undefined) throw new Error('openapi handler without openAPIConfig');
  const timeoutMs = handlerTimeoutMs(handler);
  const headers = requestHeaders(config);
  const response = await fetch(config.specURL, {
    headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.5', ...headers },
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`fetching ${config.specURL} answered HTTP ${response.status}`);
  const document = await resolveDocument(parseDocument(text));
  return operationsOf(document, config).map((operation) => {
    const { call, ...tool } = operationTool(operation);
    return available(operation.url, {
      handlerName: handler.name,
      ...tool,
      target: { type: 'openapi', ...call, headers, timeoutMs },
    });
  });
}

/** The extra headers and the Authorization header an openapi handler sends. */
export function requestHeaders(config: OpenAPIConfig): Record<string, string> {
  const headers: Record<string, string> = { ...config.headers };
  const token = config.authToken;
  if (token !== undefined && token !== '') {
    if (config.authType === 'bearer') headers.authorization = `Bearer ${token}`;
    if (config.authType === 'basic') {
      // user:password is encoded here; anything else is taken as already encoded.
      const encoded = token.includes(':') ? Buffer.from(token).toString('base64') : token;
      headers.authorization = `Basic ${encoded}`;
    }
  }
  return headers;
}

/** JSON or YAML text as a document; YAML parses JSON too, JSON.parse first gives clearer errors. */
export function parseDocument(text: string): ApiDocument {
  const value: unknown = text.trimStart().startsWith('{') ? JSON.parse(text) : parseYaml(text);
  if (typeof value !== 'object' || value === null) throw new Error('the spec is not an object');
  const document = value as ApiDocument;
  if (document.openapi === undefined && document.swagger === undefined) {
    throw new Error('the spec is neither OpenAPI 3 (openapi) nor Swagger 2 (swagger)');
  }
  return document;
}

async function resolveDocument(document: ApiDocument): Promise<ApiDocument> {
  // Only references inside the document: resolving others would fetch arbitrary URLs from this
  // process, without the handler's credentials.
  const resolved = await dereference(document as Parameters<typeof dereference>[0], {
    resolve: { external: false },
  });
  return resolved as ApiDocument;
}

/** Every operation of the document, filtered by operation id (or generated name) when asked. */
export function operationsOf(document: ApiDocument, config: OpenAPIConfig): Operation[] {
  const base = baseUrlOf(document, config).replace(/\/+$/, '');
  const filter = config.operationFilter;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation === undefined) continue;
      const name = operation.operationId ?? operationName(method, path);
      if (filter !== undefined && filter.length > 0 && !filter.includes(name)) continue;
      operations.push({
        name,
        method: method.toUpperCase(),
        path,
        url: `${base}${path}`,
        operation,
        pathParameters: item.parameters,
      });
    }
  }
  return operations;
}

/** A tool name for an operation without an id: `get /pets/{id}` → `get_pets_id`. */
export function operationName(method: string, path: string): string {
  return `${method}_${path}`
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '');
}

/**
 * Where the operations are served: the handler's baseURL, else OpenAPI 3's first server (relative
 * URLs taken from the spec's own location, variables at their defaults), else Swagger 2's
 * scheme, host and basePath (each defaulting to the spec's location).
 */
export function baseUrlOf(document: ApiDocument, config: OpenAPIConfig): string {
  if (config.baseURL !== undefined && config.baseURL !== '') return config.baseURL;
  const specURL = new URL(config.specURL);
  if (document.swagger !== undefined) {
    const scheme = document.schemes?.[0] ?? specURL.protocol.replace(':', '');
    return `${scheme}://${document.host ?? specURL.host}${document.basePath ?? ''}`;
  }
  const server = document.servers?.[0];
  if (server?.url === undefined) return specURL.origin;
  const url = server.url.replace(
    /\{([^}]+)\}/g,
    (whole, name: string) => server.variables?.[name]?.default ?? whole,
  );
  return new URL(url, specURL).href;
}
