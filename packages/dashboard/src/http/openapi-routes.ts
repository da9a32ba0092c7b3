import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { stringify } from 'yaml';
import { swaggerOptions } from './openapi-document.js';
import { operation } from './operation.js';

/**
 * Collects the routes registered after it into the OpenAPI document: registered before any
 * route. The document is made from the routes' own schemas (operation.ts), nothing else.
 */
export async function collectOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, swaggerOptions());
}

/** The document of an app whose routes are all registered (the app is ready). */
export function openApiDocument(app: FastifyInstance): Record<string, unknown> {
  return app.swagger() as unknown as Record<string, unknown>;
}

/** The document as YAML: no anchors for shared objects, no folding of long lines. */
export function toYaml(document: unknown): string {
  return stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 });
}

/** `GET /api/openapi.yaml` and `GET /api/openapi.json`: the document, without authentication. */
export function registerOpenApiRoutes(app: FastifyInstance): void {
  const isPublic = { access: 'public' as const };
  let yaml: string | undefined;
  let json: string | undefined;
  app.get(
    '/api/openapi.yaml',
    {
      config: isPublic,
      schema: operation(
        {
          operationId: 'getOpenApiYaml',
          summary: 'This description, as YAML',
          description:
            'This OpenAPI 3.1 document, as YAML: the routes of the mode the dashboard runs in.',
          tag: 'openapi',
        },
        {
          response: {
            200: {
              description: 'The document.',
              content: { 'application/yaml': { schema: Type.String() } },
            },
          },
        },
      ),
    },
    (_req, reply) => {
      yaml ??= toYaml(openApiDocument(app));
      return reply.type('application/yaml; charset=utf-8').send(yaml);
    },
  );
  app.get(
    '/api/openapi.json',
    {
      config: isPublic,
      schema: operation(
        {
          operationId: 'getOpenApiJson',
          summary: 'This description, as JSON',
          description: 'This OpenAPI 3.1 document, as JSON: the same document as the YAML one.',
          tag: 'openapi',
        },
        {
          response: {
            200: {
              description: 'The document.',
              content: { 'application/json': { schema: Type.Object({}) } },
            },
          },
        },
      ),
    },
    (_req, reply) => {
      json ??= JSON.stringify(openApiDocument(app));
      return reply.type('application/json; charset=utf-8').send(json);
    },
  );
}
