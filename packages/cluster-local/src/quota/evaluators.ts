import type { KubeObject } from '../contracts.js';
import { isRecord, metaOf } from '../objects/object-meta.js';
import { countQuantity, maxQuantity } from './quantity.js';
import { addLists, parseResourceList, type ResourceList } from './resource-list.js';

/**
 * What kube-apiserver's quota registry knows of a resource: which quota resource names its objects
 * consume, and how much of each one object takes. Pure, one per stored resource.
 */
export interface QuotaEvaluator {
  /** The stored resource, group-qualified (`pods`, `agentruntimes.paddock.dev`). */
  storage: string;
  /** Whether a write of this kind can change usage (object counts: only creates). */
  handles(operation: 'CREATE' | 'UPDATE'): boolean;
  /** Whether a quota resource name is one this resource consumes. */
  matches(name: string): boolean;
  /** What one object consumes; `now` decides whether a terminating pod still counts. */
  usage(object: KubeObject, now: number): ResourceList;
}

/** `count/<resource>.<group>`: every object in storage counts, whatever its state. */
export function objectCountName(storage: string): string {
  return `count/${storage}`;
}

const POD_RESOURCES = new Set([
  'count/pods',
  'pods',
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
]);
const HUGE_PAGES = 'hugepages-';
const REQUESTS = 'requests.';
const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/';
const STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

/** The resources whose classic quota names (`secrets`, `services.nodeports`, ...) Kubernetes has. */
const CLASSIC: Record<string, (storage: string) => QuotaEvaluator> = {
  pods: podEvaluator,
  services: serviceEvaluator,
  persistentvolumeclaims: claimEvaluator,
  secrets: (storage) => countEvaluator(storage, storage),
  configmaps: (storage) => countEvaluator(storage, storage),
  replicationcontrollers: (storage) => countEvaluator(storage, storage),
  resourcequotas: (storage) => countEvaluator(storage, storage),
};

export function evaluatorFor(storage: string): QuotaEvaluator {
  return CLASSIC[storage]?.(storage) ?? countEvaluator(storage);
}

/** The stored resource a quota resource name is about, or undefined when none is. */
export function storageOf(name: string): string | undefined {
  if (name.startsWith('count/')) return name.slice('count/'.length);
  return Object.keys(CLASSIC).find((storage) => evaluatorFor(storage).matches(name));
}

function countEvaluator(storage: string, classicName?: string): QuotaEvaluator {
  const names = new Set([objectCountName(storage), ...(classicName ? [classicName] : [])]);
  return {
    storage,
    handles: (operation) => operation === 'CREATE',
    matches: (name) => names.has(name),
    usage: () => new Map([...names].map((name) => [name, countQuantity(1)])),
  };
}

function serviceEvaluator(storage: string): QuotaEvaluator {
  const names = new Set([
    objectCountName(storage),
    'services',
    'services.loadbalancers',
    'services.nodeports',
  ]);
  return {
    storage,
    handles: () => true,
    matches: (name) => names.has(name),
    usage(service) {
      const spec = isRecord(service['spec']) ? service['spec'] : {};
      const ports = Array.isArray(spec['ports']) ? spec['ports'] : [];
      const usage: ResourceList = new Map([
        [objectCountName(storage), countQuantity(1)],
        ['services', countQuantity(1)],
      ]);
      if (spec['type'] === 'NodePort') usage.set('services.nodeports', countQuantity(ports.length));
      if (spec['type'] === 'LoadBalancer') {
        // Without node port allocation only the ports that name one take one.
        const nodePorts =
          spec['allocateLoadBalancerNodePorts'] === false
            ? ports.filter((port) => isRecord(port) && Number(port['nodePort']) > 0).length
            : ports.length;
        usage.set('services.nodeports', countQuantity(nodePorts));
        usage.set('services.loadbalancers', countQuantity(1));
      }
      return usage;
    },
  };
}

function claimEvaluator(storage: string): QuotaEvaluator {
  const fixed = new Set([objectCountName(storage), 'persistentvolumeclaims', 'requests.storage']);
  return {
    storage,
    handles: () => true,
    matches: (name) =>
      fixed.has(name) ||
      (name.includes(STORAGE_CLASS_SUFFIX) &&
        (name.endsWith('/requests.storage') || name.endsWith('/persistentvolumeclaims'))),
    usage(claim) {
      const spec = isRecord(claim['spec']) ? claim['spec'] : {};
      const status = isRecord(claim['status']) ? claim['status'] : {};
      const resources = isRecord(spec['resources']) ? spec['resources'] : {};
      const usage: ResourceList = new Map([
        [objectCountName(storage), countQuantity(1)],
        ['persistentvolumeclaims', countQuantity(1)],
      ]);
      const className =
        typeof spec['storageClassName'] === 'string'
          ? spec['storageClassName']
          : metaOf(claim).annotations?.[STORAGE_CLASS_ANNOTATION];
      if (className) {
        usage.set(`${className}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, countQuantity(1));
      }
      const requested = parseResourceList(resources['requests']).get('storage');
      // A claim being expanded is charged for the larger of what it asks and what it has.
      const allocated = parseResourceList(status['allocatedResources']).get('storage');
      const storageUsed =
        requested && allocated ? maxQuantity(requested, allocated) : (requested ?? allocated);
      if (storageUsed) {
        usage.set('requests.storage', storageUsed);
        if (className)
          usage.set(`${className}${STORAGE_CLASS_SUFFIX}requests.storage`, storageUsed);
      }
      return usage;
    },
  };
}

function podEvaluator(storage: string): QuotaEvaluator {
  return {
    storage,
    handles: (operation) => operation === 'CREATE',
    matches: (name) =>
      POD_RESOURCES.has(name) ||
      name.startsWith(HUGE_PAGES) ||
      name.startsWith(`${REQUESTS}${HUGE_PAGES}`) ||
      isExtendedQuotaName(name),
    usage(pod, now) {
      const usage: ResourceList = new Map([['count/pods', countQuantity(1)]]);
      // Object counts cover every pod stored; compute only pods that still run or may.
      if (!chargedForCompute(pod, now)) return usage;
      const { requests, limits } = podRequestsAndLimits(pod);
      return addLists(usage, computeUsage(requests, limits));
    },
  };
}

/** `requests.<domain>/<name>`: an extended resource, quota'd by its requests only. */
function isExtendedQuotaName(name: string): boolean {
  return name.startsWith(REQUESTS) && name.includes('/') && !name.includes('kubernetes.io/');
}

/** A pod's containers and init containers. */
export function allContainersOf(pod: KubeObject): unknown[] {
  const spec = isRecord(pod['spec']) ? pod['spec'] : {};
  const list = (value: unknown): unknown[] => (Array.isArray(value) ? (value as unknown[]) : []);
  return [...list(spec['containers']), ...list(spec['initContainers'])];
}

/** Whether a pod is charged for compute: not terminal, and not past its deletion grace period. */
export function chargedForCompute(pod: KubeObject, now: number): boolean {
  const status = isRecord(pod['status']) ? pod['status'] : {};
  if (status['phase'] === 'Succeeded' || status['phase'] === 'Failed') return false;
  const meta = metaOf(pod);
  if (meta.deletionTimestamp && meta.deletionGracePeriodSeconds !== undefined) {
    const ends =
      Date.parse(meta.deletionTimestamp) + Number(meta.deletionGracePeriodSeconds) * 1000;
    if (now > ends) return false;
  }
  return true;
}

/** A container's requests and limits, its requests defaulted from its limits as the API server does. */
export function containerResources(container: unknown): {
  requests: ResourceList;
  limits: ResourceList;
} {
  const resources =
    isRecord(container) && isRecord(container['resources']) ? container['resources'] : {};
  const limits = parseResourceList(resources['limits']);
  const requests = parseResourceList(resources['requests']);
  for (const [name, amount] of limits) if (!requests.has(name)) requests.set(name, amount);
  return { requests, limits };
}

/**
 * The pod's effective requests and limits: its containers and restartable init containers
 * (sidecars) together, or any one init container with the sidecars started before it when that is
 * more, plus the pod's overhead.
 */
export function podRequestsAndLimits(pod: KubeObject): {
  requests: ResourceList;
  limits: ResourceList;
} {
  const spec = isRecord(pod['spec']) ? pod['spec'] : {};
  const containers = Array.isArray(spec['containers']) ? spec['containers'] : [];
  const initContainers = Array.isArray(spec['initContainers']) ? spec['initContainers'] : [];
  const totals = { requests: new Map() as ResourceList, limits: new Map() as ResourceList };
  for (const container of containers) {
    const own = containerResources(container);
    totals.requests = addLists(totals.requests, own.requests);
    totals.limits = addLists(totals.limits, own.limits);
  }
  let sidecars = { requests: new Map() as ResourceList, limits: new Map() as ResourceList };
  const initPeaks = { requests: new Map() as ResourceList, limits: new Map() as ResourceList };
  for (const container of initContainers) {
    const own = containerResources(container);
    if (isRecord(container) && container['restartPolicy'] === 'Always') {
      sidecars = {
        requests: addLists(sidecars.requests, own.requests),
        limits: addLists(sidecars.limits, own.limits),
      };
      totals.requests = addLists(totals.requests, own.requests);
      totals.limits = addLists(totals.limits, own.limits);
    } else {
      keepLarger(initPeaks.requests, addLists(own.requests, sidecars.requests));
      keepLarger(initPeaks.limits, addLists(own.limits, sidecars.limits));
    }
  }
  keepLarger(totals.requests, initPeaks.requests);
  keepLarger(totals.limits, initPeaks.limits);
  const overhead = parseResourceList(spec['overhead']);
  return {
    requests: addLists(totals.requests, overhead),
    limits: addLists(totals.limits, overhead),
  };
}

function keepLarger(into: ResourceList, other: ResourceList): void {
  for (const [name, amount] of other) {
    const have = into.get(name);
    into.set(name, have ? maxQuantity(have, amount) : amount);
  }
}

/** The quota names a set of requests and limits consumes (one pod's or one container's). */
export function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const usage: ResourceList = new Map([['pods', countQuantity(1)]]);
  for (const name of ['cpu', 'memory', 'ephemeral-storage']) {
    const request = requests.get(name);
    if (request) usage.set(name, request).set(`${REQUESTS}${name}`, request);
    const limit = limits.get(name);
    if (limit) usage.set(`limits.${name}`, limit);
  }
  for (const [name, amount] of requests) {
    if (name.startsWith(HUGE_PAGES)) usage.set(name, amount).set(`${REQUESTS}${name}`, amount);
    else if (name.includes('/') && !name.includes('kubernetes.io/')) {
      usage.set(`${REQUESTS}${name}`, amount);
    }
  }
  return usage;
}

/** Quota'd cpu and memory names a pod's every container must ask for (Kubernetes' old rule). */
const MUST_SPECIFY = new Set([
  'cpu',
  'memory',
  'requests.cpu',
  'requests.memory',
  'limits.cpu',
  'limits.memory',
]);

/**
 * Why a pod may not be created under a quota that limits these names, as kube-apiserver words it
 * (`must specify limits.cpu for: app; requests.memory for: app,sidecar`), or undefined.
 */
export function podConstraintProblem(pod: KubeObject, limited: string[]): string | undefined {
  const required = limited.filter((name) => MUST_SPECIFY.has(name));
  if (required.length === 0) return undefined;
  const containers = allContainersOf(pod);
  const missing = new Map<string, Set<string>>();
  for (const container of containers) {
    const { requests, limits } = containerResources(container);
    const has = computeUsage(requests, limits);
    const name =
      isRecord(container) && typeof container['name'] === 'string' ? container['name'] : '';
    for (const resource of required) {
      if (has.has(resource)) continue;
      const names = missing.get(resource) ?? new Set<string>();
      missing.set(resource, names.add(name));
    }
  }
  if (missing.size === 0) return undefined;
  const parts = [...missing.keys()]
    .sort()
    .map((resource) => `${resource} for: ${[...missing.get(resource)!].sort().join(',')}`);
  return `must specify ${parts.join('; ')}`;
}
