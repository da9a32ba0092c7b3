import { once } from 'node:events';
import { join } from 'node:path';
import {
  httpUrl,
  prepareDatabaseFile,
  silentLogger,
  type Address,
  type Logger,
} from '@paddock/common';
import { errors } from './api/api-error.js';
import { bootstrap } from './api/bootstrap.js';
import { kindStrategies } from './api/kind-strategies.js';
import { namespaceLifecycle } from './api/namespace-admission.js';
import { rbacEscalation } from './api/rbac-admission.js';
import { storeRbacSource } from './api/rbac-source.js';
import type { RequestContext } from './api/request-context.js';
import { Resources } from './api/resources.js';
import { adminUser } from './auth/admin-token.js';
import { createTokenAuthority } from './auth/tokens.js';
import { WorkQueue } from '@paddock/kube/work-queue';
import { CrdController } from './controllers/crd-controller.js';
import { GarbageCollector } from './controllers/garbage-collector.js';
import { NamespaceController } from './controllers/namespace-controller.js';
import { QuotaController } from './controllers/quota-controller.js';
import { RootCaPublisher } from './controllers/root-ca-publisher.js';
import { StatefulSetController } from './controllers/statefulset-controller.js';
import { checkStructural, compileSchema } from './crd/compile.js';
import { DATA_FILES, loadSecrets } from './data-dir.js';
import { writeKubeconfig } from './kubeconfig.js';
import { metaOf } from './objects/object-meta.js';
import { usageUnder } from './quota/namespace-usage.js';
import { RESOURCE_QUOTAS, resourceQuotaAdmission } from './quota/quota-admission.js';
import { UsageCache } from './quota/usage-cache.js';
import { authorize } from './rbac/authorize.js';
import { builtinKinds } from './registry/builtin-kinds.js';
import { Registry } from './registry/registry.js';
import { apiHandler } from './server/api-server.js';
import { dualProtocolListener } from './server/dual-protocol-listener.js';
import { bearerAuthenticator } from './server/authentication.js';
import { containerOf } from './server/pod-log.js';
import { memoryPersistence } from './storage/persistence.js';
import { PodLogs } from './storage/pod-logs.js';
import { openDatabase, sqlitePersistence } from './storage/sqlite-persistence.js';
import { Store } from './storage/store.js';

export interface ClusterOptions {
  /** Where to listen; 127.0.0.1 on a free port by default. */
  listen?: Address;
  /** The folder of the SQLite database, admin token and signing key; in memory when absent. */
  dataDir?: string;
  /** Where to write an admin kubeconfig (mode 0600). */
  kubeconfigPath?: string;
  logger?: Logger;
  /** The clock, in milliseconds since the epoch (tests move it to expire tokens). */
  now?: () => number;
  /** How often a watch that allows bookmarks gets one; a minute by default. */
  bookmarkIntervalMs?: number;
  /** A watch without timeoutSeconds lasts between this and twice this; 30 minutes by default. */
  watchTimeoutMs?: number;
  /** How many recent changes a watch can resume from; 10,000 by default. */
  changeLogSize?: number;
}

export interface RunningCluster {
  /** The API server's URL, e.g. `http://127.0.0.1:6443`. */
  url: string;
  /** The same port over TLS, e.g. `https://127.0.0.1:6443` (what the kubeconfig names). */
  httpsUrl: string;
  /** The server's self-signed certificate (PEM), to verify httpsUrl with. */
  caCertificate: string;
  address: Address;
  adminToken: string;
  kubeconfigPath?: string;
  /**
   * Appends to a pod container's log (the container defaults to the pod's only one), as if it had
   * written the text: nothing runs containers here.
   */
  appendPodLog(namespace: string, pod: string, container: string | undefined, text: string): void;
  /** Resolves once the controllers have nothing queued (garbage collection, namespace cleanup). */
  settled(): Promise<void>;
  /** Ends the watches, stops listening and closes the database. */
  close(): Promise<void>;
}

/** Starts the embedded API server: storage, controllers, then HTTP. */
export async function startCluster(options: ClusterOptions = {}): Promise<RunningCluster> {
  const logger = options.logger ?? silentLogger();
  const now = options.now ?? Date.now;
  const listen = options.listen ?? { host: '127.0.0.1', port: 0 };
  const { adminToken, signingKey, certificate } = await loadSecrets(
    options.dataDir,
    certificateHosts(listen.host),
  );
  const databaseFile =
    options.dataDir === undefined ? undefined : join(options.dataDir, DATA_FILES.database);
  if (databaseFile !== undefined) prepareDatabaseFile(databaseFile);
  const db = databaseFile === undefined ? undefined : openDatabase(databaseFile);
  const store = new Store({
    persistence: db ? sqlitePersistence(db) : memoryPersistence(),
    ...(options.changeLogSize ? { logSize: options.changeLogSize } : {}),
  });
  const registry = new Registry(builtinKinds());
  const rbac = storeRbacSource(store);
  const usage = new UsageCache(
    (quota, storage) =>
      usageUnder(quota, storage, store.list(storage, metaOf(quota).namespace ?? ''), now()),
    now,
  );
  const unsubscribeUsage = store.subscribe((change) => usage.changed(change));
  const resources = new Resources(store, registry, {
    strategies: kindStrategies({ checkStructural, storedServices: () => store.list('services') }),
    admission: [
      namespaceLifecycle((name) => store.get('namespaces', '', name)),
      rbacEscalation(rbac),
      resourceQuotaAdmission({
        quotas: (namespace) => store.list(RESOURCE_QUOTAS, namespace),
        used: (quota, storage) => usage.used(quota, storage),
        now,
      }),
    ],
  });
  const system = (): RequestContext => ({ user: adminUser(), now: now(), dryRun: false });
  const tokens = createTokenAuthority(signingKey, {
    isServiceAccountLive: (namespace, name, uid) =>
      metaOf(store.get('serviceaccounts', namespace, name) ?? {}).uid === uid,
  });
  const logs = new PodLogs(db);
  const controllers = [
    new CrdController(store, resources, compileSchema, system, logger),
    new GarbageCollector(store, resources, system, logger),
    new NamespaceController(store, resources, system, logger),
    new StatefulSetController(store, resources, system, logger),
    new RootCaPublisher(store, resources, certificate.cert, system, logger),
    new QuotaController(store, resources, system, logger),
  ];
  const queues = controllers.map((controller) => controller.queue);
  const unsubscribes = [
    unsubscribeUsage,
    ...controllers.map((controller) => controller.start()),
    store.subscribe((change) => {
      if (change.type === 'DELETED' && change.resource === 'pods') {
        logs.remove(metaOf(change.object).uid ?? '');
      }
    }),
  ];
  bootstrap(resources, system());

  const watches = new Set<() => void>();
  // Whoever waits for /readyz (the platform's supervisor) reads the kubeconfig next.
  const pendingStart = new Set(options.kubeconfigPath ? ['write-kubeconfig'] : []);
  const listener = dualProtocolListener(
    apiHandler({
      store,
      registry,
      resources,
      logs,
      tokens,
      authenticate: bearerAuthenticator({ adminToken, tokens, now }),
      authorize: (user, attributes) => authorize(user, attributes, rbac),
      rbac,
      now,
      logger,
      bookmarkIntervalMs: options.bookmarkIntervalMs ?? 60_000,
      watchTimeoutMs: options.watchTimeoutMs ?? 30 * 60_000,
      watches,
      pendingStart,
    }),
    certificate,
  );
  listener.net.listen(listen.port, listen.host);
  await once(listener.net, 'listening');
  const bound = listener.net.address();
  const address =
    bound !== null && typeof bound === 'object'
      ? { host: bound.address, port: bound.port }
      : listen;
  const url = httpUrl(address);
  const httpsUrl = url.replace(/^http:/, 'https:');
  if (options.kubeconfigPath) {
    await writeKubeconfig(options.kubeconfigPath, httpsUrl, certificate.cert, adminToken);
    pendingStart.delete('write-kubeconfig');
  }

  let closing: Promise<void> | undefined;
  const close = async () => {
    for (const end of [...watches]) end();
    // Requests in flight get a moment to finish; then their connections go too.
    await listener.close(2000);
    await Promise.all(queues.map((queue) => queue.shutdown()));
    for (const unsubscribe of unsubscribes) unsubscribe();
    store.close();
  };

  return {
    url,
    httpsUrl,
    caCertificate: certificate.cert,
    address,
    adminToken,
    ...(options.kubeconfigPath ? { kubeconfigPath: options.kubeconfigPath } : {}),
    appendPodLog(namespace, pod, container, text) {
      const object = store.get('pods', namespace, pod);
      if (!object) throw errors.notFound({ group: '', plural: 'pods' }, pod);
      logs.append(
        metaOf(object).uid!,
        containerOf(object, container ?? null),
        text,
        new Date(now()),
      );
    },
    settled: () => WorkQueue.allIdle(queues),
    close: () => (closing ??= close()),
  };
}

/** The names a client may reach the server by: loopback always, and the listen host. */
function certificateHosts(listenHost: string): string[] {
  const hosts = ['localhost', '127.0.0.1', '::1'];
  if (
    listenHost !== '' &&
    listenHost !== '0.0.0.0' &&
    listenHost !== '::' &&
    !hosts.includes(listenHost)
  ) {
    hosts.push(listenHost);
  }
  return hosts;
}
