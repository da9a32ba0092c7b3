import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, errors } from '../api/api-error.js';
import type { Registry } from '../registry/registry.js';
import type { ResourceType } from '../registry/resource-type.js';
import {
  BuiltinSchemas,
  GVK_EXTENSION,
  loadModelCatalog,
  SCHEMA_REF_PREFIX,
  type JsonSchema,
  type ModelCatalog,
} from './builtin-schemas.js';
import { sendStatus } from './responses.js';
import type { ServerDeps } from './server-deps.js';

/**
 * /openapi/v2 and /openapi/v3: every served kind's schema (built-in kinds from the upstream models,
 * custom resources from their CustomResourceDefinition) and, per resource, the operations kubectl
 * looks for. kubectl reads the PATCH operation's `fieldValidation` parameter to leave validation
 * to the server; `kubectl explain` reads the schemas of /openapi/v3; `kubectl apply` of a `kind:
 * List` validates its items against /openapi/v2, which it reads as protobuf only. No operation
 * advertises strategic merge patches, so kubectl computes those from its compiled-in types (the
 * schemas here carry no patch strategies). Documents are built on first request and kept until
 * the kinds they describe change.
 */

export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
/** The type the answer carries: clients parse it as a MIME type, where `@` is not allowed. */
export const OPENAPI_V2_PROTOBUF_CONTENT_TYPE =
  'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/** At most this many documents are kept (one per served group version, and the v2 one). */
export const MAX_CACHED_DOCUMENTS = 256;

const PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/apply-patch+yaml',
];

const QUERY_PARAMETERS = ['fieldValidation', 'fieldManager', 'dryRun'];

const prefixOf = (group: string, version: string) =>
  group === '' ? `api/${version}` : `apis/${group}/${version}`;

function itemPath(type: ResourceType): string {
  const base = `/${prefixOf(type.group, type.version)}`;
  return type.namespaced
    ? `${base}/namespaces/{namespace}/${type.plural}/{name}`
    : `${base}/${type.plural}/{name}`;
}

/** The dotted name Kubernetes gives a custom resource's schema: `dev.paddock.v1alpha1.Workspace`. */
function customSchemaName(type: ResourceType): string {
  return `${type.group.split('.').reverse().join('.')}.${type.version}.${type.kind}`;
}

const gvkOf = (type: ResourceType) => ({
  group: type.group,
  version: type.version,
  kind: type.kind,
});

/** The verbs of an object's own path, as OpenAPI operations (v2 and v3 share this shape). */
function itemOperations(type: ResourceType, v2: boolean): Record<string, JsonSchema> {
  const operation = (verb: string, method: string): JsonSchema => ({
    operationId: `${verb}${type.kind}`,
    ...(method === 'patch' && v2 ? { consumes: PATCH_TYPES } : {}),
    parameters: QUERY_PARAMETERS.map((name) =>
      v2
        ? { name, in: 'query', type: 'string', uniqueItems: true }
        : { name, in: 'query', schema: { type: 'string', uniqueItems: true } },
    ),
    responses: { '200': { description: 'OK' } },
    'x-kubernetes-action': verb,
    [GVK_EXTENSION]: gvkOf(type),
  });
  const methods: [string, string][] = [
    ['get', 'get'],
    ['update', 'put'],
    ['patch', 'patch'],
    ['delete', 'delete'],
  ];
  return Object.fromEntries(
    methods
      .filter(([verb]) => type.verbs.includes(verb))
      .map(([verb, method]) => [method, operation(verb === 'update' ? 'put' : verb, method)]),
  );
}

/** The named schemas that describe `types`: custom ones as their CRD gives them, built-in ones with all they reference. */
export function schemasOf(
  types: readonly ResourceType[],
  builtins: BuiltinSchemas,
): Map<string, JsonSchema> {
  const roots: string[] = [];
  const custom = new Map<string, JsonSchema>();
  for (const type of types) {
    if (type.openAPIV3Schema) {
      custom.set(customSchemaName(type), {
        ...type.openAPIV3Schema,
        [GVK_EXTENSION]: [gvkOf(type)],
      });
    } else if (!type.crd) {
      const root = builtins.rootOf(type);
      if (root) roots.push(root);
    }
  }
  return new Map([...builtins.closure(roots), ...custom]);
}

/** The OpenAPI v3 document of one group version. */
export function groupVersionDocument(
  types: readonly ResourceType[],
  builtins: BuiltinSchemas,
): JsonSchema {
  const paths: Record<string, JsonSchema> = {};
  for (const type of types) {
    const operations = itemOperations(type, false);
    if (Object.keys(operations).length > 0) paths[itemPath(type)] = operations;
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: 'v1.30.0' },
    paths,
    components: { schemas: Object.fromEntries(schemasOf(types, builtins)) },
  };
}

/**
 * A schema as Swagger 2.0 can say it, as kube-apiserver publishes custom resources there: what v2
 * cannot express (nullable, int-or-string, preserved unknown fields, oneOf and the like) leaves
 * the node untyped, so kubectl's client-side validation accepts any value there.
 */
export function toV2Schema(node: unknown): JsonSchema {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return {};
  const schema = node as JsonSchema;
  if (typeof schema.$ref === 'string') {
    return { $ref: schema.$ref.replace(SCHEMA_REF_PREFIX, '#/definitions/') };
  }
  const out: JsonSchema = {};
  if (typeof schema.description === 'string') out.description = schema.description;
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-') && !UNTYPED_EXTENSIONS.has(key)) out[key] = value;
  }
  const untyped =
    schema.nullable === true || [...UNTYPED_EXTENSIONS].some((key) => schema[key] === true);
  if (untyped) return out;
  if (typeof schema.type === 'string') out.type = schema.type;
  if (typeof schema.format === 'string') out.format = schema.format;
  if (Array.isArray(schema.required)) out.required = schema.required;
  if (typeof schema.properties === 'object' && schema.properties !== null) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([name, value]) => [name, toV2Schema(value)]),
    );
  }
  if (typeof schema.items === 'object' && schema.items !== null) {
    out.items = toV2Schema(schema.items);
  }
  if (typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null) {
    out.additionalProperties = toV2Schema(schema.additionalProperties);
  }
  return out;
}

const UNTYPED_EXTENSIONS = new Set([
  'x-kubernetes-int-or-string',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
]);

/** The Swagger 2.0 document of every served kind. */
export function openApiV2Document(
  types: readonly ResourceType[],
  builtins: BuiltinSchemas,
): JsonSchema {
  const paths: Record<string, JsonSchema> = {};
  for (const type of types) {
    const operations = itemOperations(type, true);
    if (Object.keys(operations).length > 0) paths[itemPath(type)] = operations;
  }
  const definitions = Object.fromEntries(
    [...schemasOf(types, builtins)].map(([name, schema]) => [name, toV2Schema(schema)]),
  );
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: 'v1.30.0' },
    paths,
    definitions,
  };
}

/** Which form of /openapi/v2 an Accept header asks for, in its order; undefined when none is served. */
export function negotiateV2(accept: string | undefined): 'protobuf' | 'json' | undefined {
  if (accept === undefined || accept.trim() === '') return 'json';
  for (const range of accept.split(',')) {
    const media = range.split(';')[0]!.trim().toLowerCase();
    if (media === OPENAPI_V2_PROTOBUF || media === OPENAPI_V2_PROTOBUF_CONTENT_TYPE) {
      return 'protobuf';
    }
    if (media === 'application/json' || media === 'application/*' || media === '*/*') {
      return 'json';
    }
  }
  return undefined;
}

interface Cached {
  /** The types the document was built from: it is current while they are the same objects. */
  types: readonly ResourceType[];
  json: string;
  hash: string;
  protobuf?: Uint8Array;
}

const sameTypes = (a: readonly ResourceType[], b: readonly ResourceType[]) =>
  a.length === b.length && a.every((type, i) => type === b[i]);

/** The documents of one server, built when first asked for and rebuilt when its kinds change. */
class OpenApiDocuments {
  private readonly cache = new Map<string, Cached>();
  private builtins?: BuiltinSchemas;

  constructor(
    private readonly registry: Registry,
    private readonly catalog: ModelCatalog,
  ) {}

  builtinSchemas(): BuiltinSchemas {
    // Core kinds first, so the types they share with other groups are named in the core group.
    this.builtins ??= new BuiltinSchemas(
      this.catalog,
      this.registry
        .all()
        .filter((t) => !t.crd)
        .sort((a, b) => Number(a.group !== '') - Number(b.group !== '')),
    );
    return this.builtins;
  }

  private cached(key: string, types: readonly ResourceType[], build: () => JsonSchema): Cached {
    const hit = this.cache.get(key);
    if (hit && sameTypes(hit.types, types)) return hit;
    const json = JSON.stringify(build());
    const hash = createHash('sha512').update(json).digest('hex').toUpperCase();
    const entry: Cached = { types, json, hash };
    this.cache.delete(key);
    this.cache.set(key, entry);
    // Oldest first: group versions no longer served are the ones that stop being refreshed.
    for (const old of this.cache.keys()) {
      if (this.cache.size <= MAX_CACHED_DOCUMENTS) break;
      this.cache.delete(old);
    }
    return entry;
  }

  groupVersion(group: string, version: string): Cached | undefined {
    const types = this.registry.resources(group, version);
    if (types.length === 0) return undefined;
    return this.cached(`v3:${group}/${version}`, types, () =>
      groupVersionDocument(types, this.builtinSchemas()),
    );
  }

  /** GET /openapi/v3: where each group version's document is, its hash changing with its content. */
  root(): JsonSchema {
    const paths: Record<string, { serverRelativeURL: string }> = {};
    for (const { name, versions } of this.registry.groups()) {
      for (const version of versions) {
        const document = this.groupVersion(name, version);
        if (!document) continue;
        const prefix = prefixOf(name, version);
        paths[prefix] = { serverRelativeURL: `/openapi/v3/${prefix}?hash=${document.hash}` };
      }
    }
    return { paths };
  }

  async v2(form: 'protobuf' | 'json'): Promise<Cached> {
    const types = this.registry.all();
    const entry = this.cached('v2', types, () => openApiV2Document(types, this.builtinSchemas()));
    if (form === 'protobuf' && !entry.protobuf) {
      // The encoder (and its protobuf library) loads with the first request for it, not at start.
      const { encodeOpenApiV2 } = await import('./openapi-v2-protobuf.js');
      entry.protobuf = encodeOpenApiV2(JSON.parse(entry.json) as JsonSchema);
    }
    return entry;
  }
}

const documents = new WeakMap<Registry, OpenApiDocuments>();

/** The built-in kinds' schemas of a server (shared with its OpenAPI documents), loaded on first use. */
export async function builtinSchemasOf(registry: Registry): Promise<BuiltinSchemas> {
  return (await documentsOf(registry)).builtinSchemas();
}

async function documentsOf(registry: Registry): Promise<OpenApiDocuments> {
  const catalog = await loadModelCatalog();
  let found = documents.get(registry);
  if (!found) {
    found = new OpenApiDocuments(registry, catalog);
    documents.set(registry, found);
  }
  return found;
}

function send(res: ServerResponse, contentType: string, body: string | Uint8Array): void {
  res.writeHead(200, {
    'Content-Type': contentType,
    'Content-Length': typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength,
    'Cache-Control': 'no-cache, private',
  });
  res.end(body);
}

/**
 * Answers GET /openapi/v2 and /openapi/v3/... (`parts`: the path's segments after `openapi`),
 * failures included, so it never throws.
 */
export async function serveOpenApi(
  req: IncomingMessage,
  res: ServerResponse,
  parts: readonly string[],
  deps: Pick<ServerDeps, 'registry' | 'logger'>,
): Promise<void> {
  try {
    const docs = await documentsOf(deps.registry);
    const [which, ...rest] = parts;
    if (which === 'v2' && rest.length === 0) {
      const form = negotiateV2(req.headers.accept);
      if (!form)
        throw errors.notAcceptable(
          `only the following media types are accepted: application/json, ${OPENAPI_V2_PROTOBUF}`,
        );
      const v2 = await docs.v2(form);
      return form === 'json'
        ? send(res, 'application/json', v2.json)
        : send(res, OPENAPI_V2_PROTOBUF_CONTENT_TYPE, v2.protobuf!);
    }
    if (which === 'v3') {
      if (rest.length === 0) return send(res, 'application/json', JSON.stringify(docs.root()));
      const found =
        rest[0] === 'api' && rest.length === 2
          ? docs.groupVersion('', rest[1]!)
          : rest[0] === 'apis' && rest.length === 3
            ? docs.groupVersion(rest[1]!, rest[2]!)
            : undefined;
      if (found) return send(res, 'application/json', found.json);
    }
    throw errors.pathNotFound();
  } catch (err) {
    if (!(err instanceof ApiError)) deps.logger.error({ err, url: req.url }, 'request failed');
    const status =
      err instanceof ApiError ? err.status : errors.internal(String((err as Error).message)).status;
    if (!res.headersSent) sendStatus(res, status);
    else res.end();
  }
}
