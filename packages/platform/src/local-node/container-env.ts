import { expandEnv, type EnvEntry } from './dependent-vars.js';
import type { Container, KeyRef, Pod } from './pod.js';

/**
 * A container's environment as the kubelet makes it: literal values, the downward API's fields,
 * Secret and ConfigMap keys, then dependent variable expansion in order, then the service
 * variables the container does not set itself. Pure: the Secrets and
 * ConfigMaps are read beforehand (see `envSources`).
 */

/** The Secrets and ConfigMaps a container's env names, to read before resolving it. */
export function envSources(container: Container): { secrets: string[]; configMaps: string[] } {
  const secrets = new Set<string>();
  const configMaps = new Set<string>();
  for (const e of container.env ?? []) {
    if (e.valueFrom?.secretKeyRef) secrets.add(e.valueFrom.secretKeyRef.name);
    if (e.valueFrom?.configMapKeyRef) configMaps.add(e.valueFrom.configMapKeyRef.name);
  }
  return { secrets: [...secrets], configMaps: [...configMaps] };
}

/** What was read: each named object's data (decoded), or undefined when it does not exist. */
export interface ReadSources {
  secrets: ReadonlyMap<string, Readonly<Record<string, string>> | undefined>;
  configMaps: ReadonlyMap<string, Readonly<Record<string, string>> | undefined>;
}

/** What the pod's downward API fields read that only the node knows. */
export interface NodeFacts {
  nodeName: string;
  podIP: string;
  hostIP: string;
  /**
   * Variables the kubelet gives every container whatever its env (KUBERNETES_SERVICE_HOST and
   * _PORT): its own env may name them and override them.
   */
  serviceEnv?: readonly (readonly [string, string])[];
}

export type EnvResult = { ok: true; env: [string, string][] } | { ok: false; message: string };

/** The value of a downward API fieldRef, or undefined for a field the kubelet does not serve. */
export function fieldValue(pod: Pod, fieldPath: string, node: NodeFacts): string | undefined {
  const { metadata } = pod;
  const keyed = /^metadata\.(labels|annotations)\['(.*)'\]$/.exec(fieldPath);
  if (keyed) {
    const map = keyed[1] === 'labels' ? metadata.labels : metadata.annotations;
    return map?.[keyed[2]!] ?? '';
  }
  switch (fieldPath) {
    case 'metadata.name':
      return metadata.name;
    case 'metadata.namespace':
      return metadata.namespace ?? '';
    case 'metadata.uid':
      return metadata.uid ?? '';
    case 'spec.nodeName':
      return pod.spec.nodeName ?? node.nodeName;
    case 'status.podIP':
      return node.podIP;
    case 'status.hostIP':
      return node.hostIP;
    default:
      return undefined;
  }
}

/** A key of a Secret or ConfigMap: its value, skipped (optional and missing), or the kubelet's error. */
function keyValue(
  ref: KeyRef,
  kind: 'Secret' | 'ConfigMap',
  data: Readonly<Record<string, string>> | undefined,
  namespace: string,
): { value?: string; error?: string } {
  const optional = ref.optional === true;
  if (data === undefined) {
    return optional ? {} : { error: `${kind.toLowerCase()} "${ref.name}" not found` };
  }
  const value = data[ref.key];
  if (value !== undefined) return { value };
  return optional
    ? {}
    : { error: `couldn't find key ${ref.key} in ${kind} ${namespace}/${ref.name}` };
}

/**
 * The container's env, in order, expanded. The first problem (a missing Secret or key that is not
 * optional, an unsupported field) is the whole answer, worded as the kubelet words it.
 */
export function containerEnv(
  pod: Pod,
  container: Container,
  sources: ReadSources,
  node: NodeFacts,
): EnvResult {
  const namespace = pod.metadata.namespace ?? 'default';
  const raw: EnvEntry[] = [];
  for (const e of container.env ?? []) {
    const from = e.valueFrom;
    if (from === undefined) {
      raw.push({ name: e.name, value: e.value ?? '', expand: true });
    } else if (from.fieldRef) {
      const value = fieldValue(pod, from.fieldRef.fieldPath, node);
      if (value === undefined) {
        return { ok: false, message: `unsupported fieldPath: ${from.fieldRef.fieldPath}` };
      }
      raw.push({ name: e.name, value, expand: false });
    } else if (from.secretKeyRef || from.configMapKeyRef) {
      const [ref, kind] = from.secretKeyRef
        ? [from.secretKeyRef, 'Secret' as const]
        : [from.configMapKeyRef!, 'ConfigMap' as const];
      const data = (kind === 'Secret' ? sources.secrets : sources.configMaps).get(ref.name);
      const { value, error } = keyValue(ref, kind, data, namespace);
      if (error !== undefined) return { ok: false, message: error };
      if (value !== undefined) raw.push({ name: e.name, value, expand: false });
    } else {
      return { ok: false, message: `env ${e.name}: valueFrom names no source this node serves` };
    }
  }
  const service = node.serviceEnv ?? [];
  const env = expandEnv(raw, service);
  const own = new Set(env.map(([name]) => name));
  return {
    ok: true,
    env: [
      ...env,
      ...service.filter(([name]) => !own.has(name)).map(([n, v]): [string, string] => [n, v]),
    ],
  };
}

/**
 * The variables that lead a container to the API server, for the `kubernetes` Service of the
 * default namespace, as the kubelet sets them even with enableServiceLinks false: here the API
 * server's address as this node reaches it (its port takes HTTPS too). Pure.
 */
export function apiServerEnv(server: string): [string, string][] {
  const url = new URL(server);
  const port = url.port || (url.protocol === 'http:' ? '80' : '443');
  return [
    ['KUBERNETES_SERVICE_HOST', url.hostname.replace(/^\[(.*)\]$/, '$1')],
    ['KUBERNETES_SERVICE_PORT', port],
  ];
}
