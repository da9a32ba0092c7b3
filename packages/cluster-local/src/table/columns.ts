import type { KubeObject } from '../contracts.js';
import { textOf, valueAt } from '../objects/json-path.js';
import { isRecord } from '../objects/object-meta.js';
import type { PrinterColumn } from '../registry/resource-type.js';
import { ageOf } from './human-duration.js';

/** A column whose cell a function computes. */
export function column(
  name: string,
  cell: PrinterColumn['cell'],
  options: { type?: string; priority?: number; description?: string; format?: string } = {},
): PrinterColumn {
  return {
    name,
    type: options.type ?? 'string',
    ...(options.format ? { format: options.format } : {}),
    description: options.description ?? '',
    priority: options.priority ?? 0,
    cell,
  };
}

export const NAME_COLUMN = column('Name', (o) => valueAt(o, 'metadata.name'), {
  format: 'name',
  description:
    'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically.',
});

export const AGE_COLUMN = column(
  'Age',
  (o, now) => ageOf(valueAt(o, 'metadata.creationTimestamp'), now),
  {
    description:
      'CreationTimestamp is a timestamp representing the server time when this object was created.',
  },
);

export const CREATED_AT_COLUMN = column(
  'Created At',
  (o) => valueAt(o, 'metadata.creationTimestamp'),
  { type: 'date' },
);

const count = (value: unknown) =>
  Array.isArray(value) ? value.length : isRecord(value) ? Object.keys(value).length : 0;

/** Access modes as kubectl abbreviates them (RWO, ROX, RWX, RWOP), comma-separated. */
function accessModes(modes: unknown): string {
  const short: Record<string, string> = {
    ReadWriteOnce: 'RWO',
    ReadOnlyMany: 'ROX',
    ReadWriteMany: 'RWX',
    ReadWriteOncePod: 'RWOP',
  };
  return Array.isArray(modes) ? modes.map((m) => short[String(m)] ?? String(m)).join(',') : '';
}

function podStatus(pod: KubeObject): string {
  if (valueAt(pod, 'metadata.deletionTimestamp') !== undefined) return 'Terminating';
  const reason = valueAt(pod, 'status.reason');
  if (typeof reason === 'string' && reason !== '') return reason;
  const phase = valueAt(pod, 'status.phase');
  return typeof phase === 'string' ? phase : 'Pending';
}

function podReady(pod: KubeObject): string {
  const containers = valueAt(pod, 'spec.containers');
  const statuses = valueAt(pod, 'status.containerStatuses');
  const ready = Array.isArray(statuses)
    ? statuses.filter((s) => isRecord(s) && s['ready'] === true).length
    : 0;
  return `${ready}/${count(containers)}`;
}

function podRestarts(pod: KubeObject): number {
  const statuses = valueAt(pod, 'status.containerStatuses');
  if (!Array.isArray(statuses)) return 0;
  return statuses.reduce<number>(
    (sum, s) =>
      sum + (isRecord(s) && typeof s['restartCount'] === 'number' ? s['restartCount'] : 0),
    0,
  );
}

function servicePorts(service: KubeObject): string {
  const ports = valueAt(service, 'spec.ports');
  if (!Array.isArray(ports) || ports.length === 0) return '<none>';
  return ports
    .filter(isRecord)
    .map(
      (p) =>
        `${textOf(p['port'])}${p['nodePort'] ? `:${textOf(p['nodePort'])}` : ''}/${textOf(p['protocol'] ?? 'TCP')}`,
    )
    .join(',');
}

function eventObject(event: KubeObject): string {
  const kind = valueAt(event, 'involvedObject.kind');
  const name = valueAt(event, 'involvedObject.name');
  return `${typeof kind === 'string' ? kind.toLowerCase() : ''}/${textOf(name ?? '')}`;
}

/** One field of each container of a workload's pod template, comma-separated. */
function templateContainers(workload: KubeObject, field: 'name' | 'image'): string {
  const containers = valueAt(workload, 'spec.template.spec.containers');
  if (!Array.isArray(containers)) return '';
  return containers
    .filter(isRecord)
    .map((c) => textOf(c[field] ?? ''))
    .join(',');
}

const text = (path: string) => (o: KubeObject) => {
  const value = valueAt(o, path);
  return value === undefined || value === '' ? '<none>' : value;
};

/** A field's text, empty when unset, where kube-apiserver prints nothing rather than <none>. */
const plain = (path: string) => (o: KubeObject) => textOf(valueAt(o, path) ?? '');

/** The columns `kubectl get` shows for the built-in kinds, after Name and before Age. */
export const BUILTIN_COLUMNS: Record<string, PrinterColumn[]> = {
  namespaces: [column('Status', text('status.phase')), AGE_COLUMN],
  pods: [
    column('Ready', podReady),
    column('Status', podStatus),
    column('Restarts', podRestarts, { type: 'integer' }),
    AGE_COLUMN,
    column('IP', text('status.podIP'), { priority: 1 }),
    column('Node', text('spec.nodeName'), { priority: 1 }),
  ],
  services: [
    column('Type', (o) => valueAt(o, 'spec.type') ?? 'ClusterIP'),
    column('Cluster-IP', text('spec.clusterIP')),
    column('External-IP', () => '<none>'),
    column('Port(s)', servicePorts),
    AGE_COLUMN,
    column(
      'Selector',
      (o) => {
        const selector = valueAt(o, 'spec.selector');
        return isRecord(selector) && Object.keys(selector).length > 0
          ? Object.entries(selector)
              .map(([k, v]) => `${k}=${String(v)}`)
              .join(',')
          : '<none>';
      },
      { priority: 1 },
    ),
  ],
  configmaps: [
    column('Data', (o) => count(o['data']) + count(o['binaryData']), { type: 'integer' }),
    AGE_COLUMN,
  ],
  secrets: [
    column('Type', (o) => o['type'] ?? 'Opaque'),
    column('Data', (o) => count(o['data']), { type: 'integer' }),
    AGE_COLUMN,
  ],
  serviceaccounts: [column('Secrets', (o) => count(o['secrets']), { type: 'integer' }), AGE_COLUMN],
  events: [
    column('Last Seen', (o, now) =>
      ageOf(
        valueAt(o, 'lastTimestamp') ??
          valueAt(o, 'eventTime') ??
          valueAt(o, 'metadata.creationTimestamp'),
        now,
      ),
    ),
    column('Type', text('type')),
    column('Reason', text('reason')),
    column('Object', eventObject),
    column('Message', text('message')),
  ],
  roles: [CREATED_AT_COLUMN],
  clusterroles: [CREATED_AT_COLUMN],
  rolebindings: [
    column(
      'Role',
      (o) => `${String(valueAt(o, 'roleRef.kind'))}/${String(valueAt(o, 'roleRef.name'))}`,
    ),
    AGE_COLUMN,
  ],
  clusterrolebindings: [
    column(
      'Role',
      (o) => `${String(valueAt(o, 'roleRef.kind'))}/${String(valueAt(o, 'roleRef.name'))}`,
    ),
    AGE_COLUMN,
  ],
  customresourcedefinitions: [CREATED_AT_COLUMN],
  leases: [column('Holder', text('spec.holderIdentity')), AGE_COLUMN],
  networkpolicies: [
    column('Pod-Selector', (o) => {
      const labels = valueAt(o, 'spec.podSelector.matchLabels');
      return isRecord(labels) && Object.keys(labels).length > 0
        ? Object.entries(labels)
            .map(([k, v]) => `${k}=${String(v)}`)
            .join(',')
        : '<none>';
    }),
    AGE_COLUMN,
  ],
  resourcequotas: [AGE_COLUMN],
  statefulsets: [
    column(
      'Ready',
      (o) =>
        `${textOf(valueAt(o, 'status.readyReplicas') ?? 0)}/${textOf(valueAt(o, 'spec.replicas') ?? 1)}`,
    ),
    AGE_COLUMN,
    column('Containers', (o) => templateContainers(o, 'name'), { priority: 1 }),
    column('Images', (o) => templateContainers(o, 'image'), { priority: 1 }),
  ],
  persistentvolumeclaims: [
    column('Status', (o) =>
      valueAt(o, 'metadata.deletionTimestamp') !== undefined
        ? 'Terminating'
        : textOf(valueAt(o, 'status.phase') ?? 'Pending'),
    ),
    column('Volume', plain('spec.volumeName')),
    column('Capacity', plain('status.capacity.storage')),
    column('Access Modes', (o) => accessModes(valueAt(o, 'status.accessModes'))),
    column('StorageClass', plain('spec.storageClassName')),
    column('VolumeAttributesClass', (o) =>
      textOf(valueAt(o, 'spec.volumeAttributesClassName') ?? '<unset>'),
    ),
    AGE_COLUMN,
    column('VolumeMode', plain('spec.volumeMode'), { priority: 1 }),
  ],
  limitranges: [CREATED_AT_COLUMN],
};
