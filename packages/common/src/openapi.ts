/**
 * The parts of an OpenAPI 3.1 document the services' descriptions are built from. Each service
 * adds its own `x-paddock-*` fields to operations and its own components.
 */

export type OpenApiSchema = Record<string, unknown>;
export type OpenApiRef = { $ref: string };

export interface OpenApiParameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  description: string;
  schema: OpenApiSchema;
}

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, { description: string; schema: OpenApiSchema }>;
  content?: Record<string, { schema: OpenApiSchema; example?: unknown }>;
}

export type OpenApiSecurityRequirement = Record<string, string[]>;

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security?: OpenApiSecurityRequirement[];
  parameters?: Array<OpenApiParameter | OpenApiRef>;
  requestBody?: { required: boolean; content: Record<string, { schema: OpenApiSchema }> };
  responses: Record<string, OpenApiResponse | OpenApiRef>;
}

export interface OpenApiDocument<
  Method extends string,
  Operation extends OpenApiOperation,
  Components,
> {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  tags: Array<{ name: string; description: string }>;
  security: OpenApiSecurityRequirement[];
  paths: Record<string, Partial<Record<Method, Operation>>>;
  components: Components;
}
