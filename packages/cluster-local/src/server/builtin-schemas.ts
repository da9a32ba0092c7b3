/**
 * The OpenAPI schemas of the built-in kinds, derived from the upstream Kubernetes models that the
 * official JavaScript client ships (each model lists its fields with their types and formats).
 * They carry no descriptions and no required fields (the models have neither), which is enough for
 * `kubectl explain` to walk any field and for kubectl's client-side validation to name unknown
 * fields. They carry no patch strategies either: operations do not advertise strategic merge
 * patches in OpenAPI, so kubectl computes those from its own compiled-in types, as before.
 */

/** A JSON Schema node as OpenAPI v3 writes it, `$ref`s pointing into `#/components/schemas/`. */
export type JsonSchema = Record<string, unknown>;

/** One field of an upstream model: its JSON name, its type and format in the client's notation. */
export interface ModelAttribute {
  baseName: string;
  type: string;
  format: string;
}

/** The client's model classes by name (`V1Pod`, `CoreV1Event`), as its models module exports them. */
export type ModelCatalog = Record<string, unknown>;

export interface KindRef {
  group: string;
  version: string;
  kind: string;
}

export const SCHEMA_REF_PREFIX = '#/components/schemas/';
export const GVK_EXTENSION = 'x-kubernetes-group-version-kind';

const META_PACKAGE = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';

/** The metav1 types every kind shares: named in their own package, not in a kind's. */
const META_TYPES = new Set([
  'ObjectMeta',
  'ListMeta',
  'LabelSelector',
  'LabelSelectorRequirement',
  'ManagedFieldsEntry',
  'OwnerReference',
  'Condition',
  'Status',
  'StatusDetails',
  'StatusCause',
  'DeleteOptions',
  'Preconditions',
]);

const pascal = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** The Go package a group's types live in, as Kubernetes names its definitions. */
export function packageOf(group: string, version: string): string {
  if (group === 'apiextensions.k8s.io') {
    return `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.${version}`;
  }
  const name = group === '' ? 'core' : group.split('.')[0]!;
  return `io.k8s.api.${name}.${version}`;
}

/** The client's class for a kind: `V1Pod`, or group-prefixed where names clash (`EventsV1Event`). */
export function modelNameOf(catalog: ModelCatalog, ref: KindRef): string | undefined {
  const groupWord = ref.group === '' ? 'Core' : pascal(ref.group.split('.')[0]!);
  const candidates = [
    `${groupWord}${pascal(ref.version)}${ref.kind}`,
    `${pascal(ref.version)}${ref.kind}`,
  ];
  return candidates.find((name) => attributesOf(catalog, name) !== undefined);
}

function attributesOf(catalog: ModelCatalog, name: string): ModelAttribute[] | undefined {
  const model = catalog[name] as { getAttributeTypeMap?: () => ModelAttribute[] } | undefined;
  return typeof model?.getAttributeTypeMap === 'function' ? model.getAttributeTypeMap() : undefined;
}

/** `V1PodSpec` → `PodSpec`, `CoreV1EndpointPort` → `EndpointPort`. */
function shortName(model: string): string {
  return model.replace(
    /^[A-Z][a-z]*?V\d+(?:(?:alpha|beta)\d+)?(?=[A-Z])|^V\d+(?:(?:alpha|beta)\d+)?(?=[A-Z])/,
    '',
  );
}

/**
 * Every built-in kind's schema and the schemas they reference, named as Kubernetes names its
 * definitions (`io.k8s.api.core.v1.Pod`). A nested type takes the package of the first kind that
 * reaches it (kinds are visited core group first), unless it is one of metav1's shared types.
 */
export class BuiltinSchemas {
  private readonly schemas = new Map<string, JsonSchema>();
  private readonly nameOfModel = new Map<string, string>();
  private readonly roots = new Map<string, string>();

  constructor(catalog: ModelCatalog, kinds: readonly KindRef[]) {
    for (const ref of kinds) {
      const model = modelNameOf(catalog, ref);
      if (!model) continue;
      const root = this.define(catalog, model, packageOf(ref.group, ref.version));
      this.roots.set(keyOf(ref), root);
      const schema = this.schemas.get(root)!;
      const gvks = (schema[GVK_EXTENSION] as KindRef[] | undefined) ?? [];
      schema[GVK_EXTENSION] = [...gvks, { group: ref.group, version: ref.version, kind: ref.kind }];
    }
  }

  /** The definition name of a kind's schema, when the upstream models know the kind. */
  rootOf(ref: KindRef): string | undefined {
    return this.roots.get(keyOf(ref));
  }

  /** The fields of a built-in object its kind does not declare; undefined for a kind not known here. */
  unknownFieldsOf(ref: KindRef, object: unknown): string[] | undefined {
    const root = this.rootOf(ref);
    const schema = root === undefined ? undefined : this.schemas.get(root);
    return schema && unknownFields(this.schemas, schema, object);
  }

  /** The named schemas reachable from `names` (the names included), in a stable order. */
  closure(names: readonly string[]): Map<string, JsonSchema> {
    const out = new Map<string, JsonSchema>();
    const pending = [...names];
    while (pending.length > 0) {
      const name = pending.pop()!;
      const schema = this.schemas.get(name);
      if (!schema || out.has(name)) continue;
      out.set(name, schema);
      pending.push(...referencesOf(schema));
    }
    return new Map([...out].sort(([a], [b]) => a.localeCompare(b)));
  }

  private define(catalog: ModelCatalog, model: string, pkg: string): string {
    const known = this.nameOfModel.get(model);
    if (known) return known;
    const short = shortName(model);
    const preferred = `${META_TYPES.has(short) ? META_PACKAGE : pkg}.${short}`;
    // Two models of one short name in one package (rare): the later keeps its class name.
    const name = this.schemas.has(preferred) ? `${pkg}.${model}` : preferred;
    this.nameOfModel.set(model, name);
    const schema: JsonSchema = { type: 'object' };
    this.schemas.set(name, schema);
    const properties: Record<string, JsonSchema> = {};
    for (const attribute of attributesOf(catalog, model) ?? []) {
      properties[attribute.baseName] = this.typeSchema(
        catalog,
        attribute.type,
        attribute.format,
        pkg,
      );
    }
    schema.properties = properties;
    return name;
  }

  private typeSchema(catalog: ModelCatalog, type: string, format: string, pkg: string): JsonSchema {
    const array = /^Array<(.+)>$/.exec(type);
    if (array) return { type: 'array', items: this.typeSchema(catalog, array[1]!, format, pkg) };
    const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
    if (map) {
      return {
        type: 'object',
        additionalProperties: this.typeSchema(catalog, map[1]!, format, pkg),
      };
    }
    switch (type) {
      case 'string':
        return format === '' ? { type: 'string' } : { type: 'string', format };
      case 'boolean':
        return { type: 'boolean' };
      case 'number':
        return format === 'double' ? { type: 'number', format } : { type: 'integer', format };
      case 'Date':
      case 'V1MicroTime':
        return { type: 'string', format: 'date-time' };
      case 'IntOrString':
        this.schemas.set(INT_OR_STRING, { type: 'string', format: 'int-or-string' });
        return { $ref: `${SCHEMA_REF_PREFIX}${INT_OR_STRING}` };
      default:
        if (attributesOf(catalog, type) === undefined) return {};
        return { $ref: `${SCHEMA_REF_PREFIX}${this.define(catalog, type, pkg)}` };
    }
  }
}

function keyOf(ref: KindRef): string {
  return `${ref.group}/${ref.version}/${ref.kind}`;
}

/** The definition names a schema refers to, anywhere inside it. */
export function referencesOf(schema: unknown): string[] {
  if (Array.isArray(schema)) return schema.flatMap(referencesOf);
  if (typeof schema !== 'object' || schema === null) return [];
  return Object.entries(schema).flatMap(([key, value]) =>
    key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMA_REF_PREFIX)
      ? [value.slice(SCHEMA_REF_PREFIX.length)]
      : referencesOf(value),
  );
}

let catalog: Promise<ModelCatalog> | undefined;

/**
 * The client's model classes, imported on first use: they cost a noticeable part of a second to
 * load, which a server that starts often for tests should only pay when OpenAPI is asked for.
 */
export function loadModelCatalog(): Promise<ModelCatalog> {
  catalog ??=
    import('@kubernetes/client-node/dist/gen/models/all.js') as Promise<unknown> as Promise<ModelCatalog>;
  return catalog;
}

/**
 * The fields of `value` that `schema` does not declare, as kube-apiserver's strict decoding names
 * them (`spec.containers[0].bogus`). Untyped nodes (`{}`) accept anything.
 */
export function unknownFields(
  schemas: ReadonlyMap<string, JsonSchema>,
  schema: JsonSchema,
  value: unknown,
  path = '',
): string[] {
  const ref = schema.$ref;
  if (typeof ref === 'string') {
    const target = schemas.get(ref.slice(SCHEMA_REF_PREFIX.length));
    return target ? unknownFields(schemas, target, value, path) : [];
  }
  if (Array.isArray(value)) {
    const items = schema.items as JsonSchema | undefined;
    return items
      ? value.flatMap((item, i) => unknownFields(schemas, items, item, `${path}[${i}]`))
      : [];
  }
  if (typeof value !== 'object' || value === null) return [];
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  const additional = schema.additionalProperties as JsonSchema | undefined;
  const at = (key: string) => (path === '' ? key : `${path}.${key}`);
  return Object.entries(value).flatMap(([key, child]) => {
    const declared = properties?.[key] ?? additional;
    if (declared) return unknownFields(schemas, declared, child, at(key));
    return properties ? [at(key)] : [];
  });
}
