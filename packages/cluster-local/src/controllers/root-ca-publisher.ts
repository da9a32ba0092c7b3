import type { Logger } from '@paddock/common';
import type { WorkQueue } from '@paddock/kube/work-queue';
import { ApiError } from '../api/api-error.js';
import type { RequestContext } from '../api/request-context.js';
import type { Resources } from '../api/resources.js';
import type { KubeObject } from '../contracts.js';
import { metaOf } from '../objects/object-meta.js';
import type { StoredChange, Store } from '../storage/store.js';
import { controllerQueue } from './controller-queue.js';

/** The ConfigMap every namespace gets, and its key: what pods' projected volumes read. */
export const ROOT_CA_CONFIG_MAP = 'kube-root-ca.crt';
export const ROOT_CA_KEY = 'ca.crt';
/** kube-controller-manager's own words on the ConfigMap. */
export const ROOT_CA_DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

const NAMESPACES = 'namespaces';
const CONFIG_MAPS = 'configmaps';

/** Whether a ConfigMap holds exactly the certificate under its key. Pure. */
export function publishesCertificate(configMap: KubeObject, certificate: string): boolean {
  const data = configMap['data'];
  if (typeof data !== 'object' || data === null) return false;
  const entries = Object.entries(data);
  return entries.length === 1 && entries[0]![0] === ROOT_CA_KEY && entries[0]![1] === certificate;
}

/**
 * kube-controller-manager's root-ca-cert-publisher: every namespace has a ConfigMap
 * `kube-root-ca.crt` whose `ca.crt` verifies the API server's serving certificate, made when the
 * namespace appears and put back when it is changed or deleted.
 */
export class RootCaPublisher {
  /** Namespaces whose ConfigMap to check. */
  readonly queue: WorkQueue;

  constructor(
    private readonly store: Store,
    private readonly resources: Resources,
    /** The PEM that verifies the server (here the self-signed serving certificate itself). */
    private readonly certificate: string,
    private readonly context: () => RequestContext,
    logger: Logger,
  ) {
    this.queue = controllerQueue((namespace) => this.sync(namespace), logger);
  }

  start(): () => void {
    // The certificate may be new since the last start (new hosts): every namespace is checked.
    for (const namespace of this.store.list(NAMESPACES)) this.queue.add(metaOf(namespace).name!);
    return this.store.subscribe((change) => this.onChange(change));
  }

  private onChange(change: StoredChange): void {
    if (change.resource === NAMESPACES) {
      if (change.type !== 'DELETED') this.queue.add(change.name);
    } else if (change.resource === CONFIG_MAPS && change.name === ROOT_CA_CONFIG_MAP) {
      this.queue.add(change.namespace);
    }
  }

  private sync(namespace: string): void {
    const ns = this.store.get(NAMESPACES, '', namespace);
    if (!ns || metaOf(ns).deletionTimestamp) return;
    const type = this.resources.registry.get('', 'v1', CONFIG_MAPS)!;
    const current = this.store.get(CONFIG_MAPS, namespace, ROOT_CA_CONFIG_MAP);
    // One being deleted (finalizers) comes back here through its DELETED change.
    if (
      current &&
      (metaOf(current).deletionTimestamp || publishesCertificate(current, this.certificate))
    ) {
      return;
    }
    const data = { [ROOT_CA_KEY]: this.certificate };
    try {
      if (current) {
        this.resources.mutate(
          type,
          namespace,
          ROOT_CA_CONFIG_MAP,
          (object) => {
            object['data'] = data;
            delete object['binaryData'];
          },
          this.context(),
        );
      } else {
        const metadata = {
          name: ROOT_CA_CONFIG_MAP,
          annotations: { 'kubernetes.io/description': ROOT_CA_DESCRIPTION },
        };
        this.resources.create(type, namespace, { metadata, data }, this.context());
      }
    } catch (err) {
      // Made or changed meanwhile (its change queues another look), or the namespace is going.
      if (!(err instanceof ApiError && [403, 404, 409].includes(err.code))) throw err;
    }
  }
}
