// Built-in Kubernetes objects checked against Kubernetes' own schemas, so a test proves that what
// Paddock writes is what an API server accepts, without an API server.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as client from '@kubernetes/client-node';

/** What every Kubernetes object carries; the rest is the kind's. */
export interface UpstreamObject {
  apiVersion?: string;
  kind?: string;
}

type Model = new (data: never) => { validate(): void };
type AttributeTypeMap = { baseName: string; type: string }[];

// kubernetes-models has one module per kind (`kubernetes-models/<apiVersion>/<Kind>`); loaded on
// first use, as importing them all would cost every test that imports this package.
const require = createRequire(import.meta.url);
const models = new Map<string, Model>();

function modelOf(apiVersion: string, kind: string): Model | undefined {
  const key = `${apiVersion}/${kind}`;
  if (!models.has(key)) {
    try {
      const loaded = require(`kubernetes-models/${key}`) as Record<string, Model | undefined>;
      const model = loaded[kind];
      if (model) models.set(key, model);
    } catch {
      return undefined;
    }
  }
  return models.get(key);
}

const clientModels = client as unknown as Record<
  string,
  { getAttributeTypeMap?: () => AttributeTypeMap } | undefined
>;

/** The client library's name of a kind's type: `apps/v1` StatefulSet is `V1StatefulSet`. */
function clientTypeOf(apiVersion: string, kind: string): string {
  const version = apiVersion.split('/').pop() ?? '';
  return `${version.charAt(0).toUpperCase()}${version.slice(1)}${kind}`;
}

/**
 * Fields the API server would drop: the client library's models list every field of every type,
 * which the upstream schemas (lenient about unknown fields) do not check.
 */
function unknownFields(value: unknown, type: string, path: string): string[] {
  const array = /^Array<(.+)>$/.exec(type);
  if (array) {
    return Array.isArray(value)
      ? value.flatMap((item, i) => unknownFields(item, array[1]!, `${path}[${i}]`))
      : [];
  }
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (map) {
    return typeof value === 'object' && value !== null
      ? Object.entries(value).flatMap(([k, v]) => unknownFields(v, map[1]!, `${path}.${k}`))
      : [];
  }
  const attributes = clientModels[type]?.getAttributeTypeMap?.();
  if (attributes === undefined || typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => {
    const attribute = attributes.find((a) => a.baseName === key);
    return attribute ? unknownFields(child, attribute.type, `${path}.${key}`) : [`${path}.${key}`];
  });
}

/**
 * Asserts that a built-in object is what Kubernetes accepts: the upstream model of its apiVersion
 * and kind checks it against the Kubernetes OpenAPI schema (and throws naming the failing paths),
 * then the client library's models name any field Kubernetes does not know. A kind with no
 * upstream model fails the test.
 */
export function validateUpstream(object: UpstreamObject): void {
  const { apiVersion = '', kind = '' } = object;
  const Model =
    /^([a-z0-9.-]+\/)?v[0-9a-z]+$/.test(apiVersion) && /^[A-Z][A-Za-z0-9]*$/.test(kind)
      ? modelOf(apiVersion, kind)
      : undefined;
  assert.ok(Model, `no upstream model for ${apiVersion} ${kind}`);
  new Model(object as never).validate();
  assert.deepEqual(
    unknownFields(object, clientTypeOf(apiVersion, kind), ''),
    [],
    `fields Kubernetes does not know in ${kind}`,
  );
}
