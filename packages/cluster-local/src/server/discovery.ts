import type { Registry } from '../registry/registry.js';
import type { ResourceType } from '../registry/resource-type.js';

/** The version /version reports: a Kubernetes minor kubectl accepts, marked as this server. */
export const SERVER_VERSION = {
  major: '1',
  minor: '30',
  gitVersion: 'v1.30.0-paddock',
  gitCommit: '',
  gitTreeState: 'clean',
  buildDate: '2024-01-01T00:00:00Z',
  goVersion: `node${process.versions.node}`,
  compiler: 'node',
  platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
};

/** Subresources whose kind is not the resource's own. */
const SUBRESOURCE_KINDS: Record<string, { group?: string; version?: string; kind: string }> = {
  scale: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
  token: { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' },
  log: { kind: 'Pod' },
  finalize: { kind: 'Namespace' },
};

/** GET /api: the legacy core group's versions. */
export function apiVersions(serverAddress: string): object {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function apiGroup(registry: Registry, name: string): object | undefined {
  const group = registry.groups().find((g) => g.name === name);
  if (!group) return undefined;
  const versions = group.versions.map((version) => ({
    groupVersion: `${name}/${version}`,
    version,
  }));
  return { name, versions, preferredVersion: versions[0] };
}

/** GET /apis: every named group (the core group is under /api). */
export function apiGroupList(registry: Registry): object {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: registry
      .groups()
      .filter((g) => g.name !== '')
      .map((g) => apiGroup(registry, g.name)),
  };
}

/** GET /apis/<group>. */
export function apiGroupOf(registry: Registry, name: string): object | undefined {
  const group = apiGroup(registry, name);
  return group && { kind: 'APIGroup', apiVersion: 'v1', ...group };
}

function resourceEntries(type: ResourceType): object[] {
  const main = {
    name: type.plural,
    singularName: type.singular,
    namespaced: type.namespaced,
    kind: type.kind,
    verbs: type.verbs,
    ...(type.shortNames.length > 0 ? { shortNames: type.shortNames } : {}),
    ...(type.categories.length > 0 ? { categories: type.categories } : {}),
  };
  const subresources = Object.entries(type.subresources).map(([name, verbs]) => {
    const sub = SUBRESOURCE_KINDS[name];
    return {
      name: `${type.plural}/${name}`,
      singularName: '',
      namespaced: type.namespaced,
      ...(sub?.group ? { group: sub.group, version: sub.version } : {}),
      kind: sub?.kind ?? type.kind,
      verbs,
    };
  });
  return [main, ...subresources];
}

/** GET /api/v1 or /apis/<group>/<version>: the resources served there. */
export function apiResourceList(
  registry: Registry,
  group: string,
  version: string,
): object | undefined {
  const types = registry.resources(group, version);
  if (types.length === 0) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group === '' ? version : `${group}/${version}`,
    resources: types.flatMap(resourceEntries),
  };
}
