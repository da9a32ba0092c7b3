import { createHash } from 'node:crypto';
import type { Registry } from '../registry/registry.js';
import type { ResourceType } from '../registry/resource-type.js';

/**
 * A minimal /openapi/v3. kubectl reads it before apply and create: it looks for a PATCH operation of
 * the kind taking the `fieldValidation` parameter, and when found leaves validation to the server
 * (which we do); without it, it insists on validating against a full schema it would download.
 * Custom resources also get their schema, for `kubectl explain`; built-in kinds get none, so kubectl
 * computes their strategic merge patches from its compiled-in types.
 */

const prefixOf = (group: string, version: string) =>
  group === '' ? `api/${version}` : `apis/${group}/${version}`;

function itemPath(type: ResourceType): string {
  const base = `/${prefixOf(type.group, type.version)}`;
  return type.namespaced
    ? `${base}/namespaces/{namespace}/${type.plural}/{name}`
    : `${base}/${type.plural}/{name}`;
}

/** The dotted name Kubernetes gives a custom resource's schema: `dev.paddock.v1alpha1.Workspace`. */
function schemaName(type: ResourceType): string {
  return `${type.group.split('.').reverse().join('.')}.${type.version}.${type.kind}`;
}

/** The OpenAPI document of one group version, or undefined when nothing is served there. */
export function groupVersionDocument(
  registry: Registry,
  group: string,
  version: string,
): object | undefined {
  const types = registry.resources(group, version).filter((t) => t.stored);
  if (types.length === 0) return undefined;
  const parameters = [
    { name: 'fieldValidation', in: 'query', schema: { type: 'string', uniqueItems: true } },
    { name: 'fieldManager', in: 'query', schema: { type: 'string', uniqueItems: true } },
    { name: 'dryRun', in: 'query', schema: { type: 'string', uniqueItems: true } },
  ];
  const paths: Record<string, object> = {};
  const schemas: Record<string, object> = {};
  for (const type of types) {
    const gvk = { group: type.group, version: type.version, kind: type.kind };
    const operation = (verb: string) => ({
      operationId: `${verb}${type.kind}`,
      'x-kubernetes-action': verb,
      'x-kubernetes-group-version-kind': gvk,
      parameters,
      responses: { '200': { description: 'OK' } },
    });
    paths[itemPath(type)] = {
      get: operation('get'),
      put: operation('put'),
      patch: operation('patch'),
      delete: operation('delete'),
    };
    if (type.openAPIV3Schema) {
      schemas[schemaName(type)] = {
        ...type.openAPIV3Schema,
        'x-kubernetes-group-version-kind': [gvk],
      };
    }
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: 'v1.30.0' },
    paths,
    components: { schemas },
  };
}

/** GET /openapi/v3: where each group version's document is, its hash changing with its content. */
export function openApiRoot(registry: Registry): object {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const { name, versions } of registry.groups()) {
    for (const version of versions) {
      const document = groupVersionDocument(registry, name, version);
      if (!document) continue;
      const hash = createHash('sha512')
        .update(JSON.stringify(document))
        .digest('hex')
        .toUpperCase();
      const prefix = prefixOf(name, version);
      paths[prefix] = { serverRelativeURL: `/openapi/v3/${prefix}?hash=${hash}` };
    }
  }
  return { paths };
}
