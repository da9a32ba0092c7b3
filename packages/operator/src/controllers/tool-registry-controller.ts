import type { Logger } from '@paddock/common';
import {
  CORE_KINDS,
  Informer,
  KINDS,
  NotFoundError,
  type Kube,
  type ResourceClient,
  type ToolRegistry,
  WorkQueue,
  type ProcessResult,
} from '@paddock/kube';
import type { EventRecorder } from '../runtime/events.js';
import type { OperatorMetrics } from '../runtime/metrics.js';
import { statusChanged, writeStatusIfChanged } from '../runtime/status.js';
import { discoverHandler, registryStatus } from '../toolregistry/index.js';
import { phaseEvent } from './tool-registry/phase-event.js';
import { discoveryService, type Service } from './tool-registry/service-address.js';
import { registryUsesService, servicesFor } from './tool-registry/service-dependents.js';

export const TOOL_REGISTRY_CONTROLLER = 'toolregistry';

const DEFAULT_WORKERS = 4;

const toolRegistryKind = (() => {
  const kind = KINDS.find((k) => k.kind === 'ToolRegistry');
  if (kind === undefined) throw new Error('the ToolRegistry kind is missing from KINDS');
  return kind;
})();

export interface ToolRegistryControllerDeps {
  kube: Kube;
  recorder: EventRecorder;
  metrics: OperatorMetrics;
  logger: Logger;
  /** Whether mcp handlers with transport stdio may run their command inside the operator. */
  allowStdio: boolean;
  /** Whether a serviceRef may name a Service in another namespace. */
  allowCrossNamespace: boolean;
  /** The wait between two discoveries of a registry that did not change. */
  rediscoverMs: number;
  workers?: number;
  now?: () => number;
}

/**
 * Discovers the tools of every ToolRegistry and reports them in its status: on a spec change, on a
 * change of a Service it selects or references, and every `rediscoverMs` in between.
 */
export class ToolRegistryController {
  private readonly registries: ResourceClient<ToolRegistry>;
  private readonly services: ResourceClient<Service>;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly queue: WorkQueue;
  private registryInformer: Informer<ToolRegistry> | undefined;
  private serviceInformer: Informer<Service> | undefined;
  /** Per registry key, the generation last discovered, so Pending is written once per change. */
  private readonly discovered = new Map<string, number>();

  constructor(private readonly deps: ToolRegistryControllerDeps) {
    this.registries = deps.kube.resource<ToolRegistry>(toolRegistryKind);
    this.services = deps.kube.resource<Service>(CORE_KINDS.service);
    this.logger = deps.logger.child({ controller: TOOL_REGISTRY_CONTROLLER });
    this.now = deps.now ?? Date.now;
    this.queue = new WorkQueue((key) => this.reconcile(key), {
      workers: deps.workers ?? DEFAULT_WORKERS,
      onProcessed: (key, outcome, seconds, error) => {
        deps.metrics.observeReconcile(TOOL_REGISTRY_CONTROLLER, outcome, seconds);
        if (error !== undefined) {
          this.logger.warn({ err: error, key }, 'reconcile failed; retrying');
        }
      },
    });
    deps.metrics.trackQueue(TOOL_REGISTRY_CONTROLLER, this.queue);
  }

  /** Resolves once both caches are filled and the workers run. */
  async start(): Promise<void> {
    const onError = (kind: string) => (err: unknown) =>
      this.logger.warn({ err, kind }, 'watch failed; retrying');
    const registries = new Informer(this.registries, {}, onError('ToolRegistry'));
    const services = new Informer(this.services, {}, onError('Service'));
    this.registryInformer = registries;
    this.serviceInformer = services;
    registries.on((event, registry, old) => {
      // Status writes (ours included) change no generation and need no new discovery.
      if (event === 'update' && old?.metadata.generation === registry.metadata.generation) return;
      this.queue.add(keyOf(registry.metadata.namespace, registry.metadata.name));
    });
    services.on((_event, service) => {
      for (const registry of registries.list()) {
        if (registryUsesService(registry, service)) {
          this.queue.add(keyOf(registry.metadata.namespace, registry.metadata.name));
        }
      }
    });
    registries.start();
    services.start();
    // Services first, so the first discoveries see them.
    await services.synced;
    await registries.synced;
    this.queue.start();
    this.logger.info('tool registry controller started');
  }

  /** Stops watching and waits for the reconciles in progress. */
  async stop(): Promise<void> {
    this.registryInformer?.stop();
    this.serviceInformer?.stop();
    await this.queue.shutdown();
  }

  private async reconcile(key: string): Promise<ProcessResult | void> {
    const [namespace = '', name = ''] = key.split('/');
    let registry: ToolRegistry;
    try {
      registry = await this.registries.get(name, namespace);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      this.discovered.delete(key);
      return;
    }
    const generation = registry.metadata.generation;
    const phaseBefore = registry.status?.phase;

    if (
      generation !== registry.status?.observedGeneration &&
      this.discovered.get(key) !== generation
    ) {
      registry = await this.writePending(registry);
    }

    const context = {
      namespace,
      services: servicesFor(registry, this.serviceInformer?.list() ?? []).map(discoveryService),
      allowCrossNamespace: this.deps.allowCrossNamespace,
      allowStdio: this.deps.allowStdio,
    };
    const results = await Promise.all(
      registry.spec.handlers.map((handler) => discoverHandler(handler, context)),
    );
    const status = registryStatus({
      results,
      generation,
      previousConditions: registry.status?.conditions,
      now: new Date(this.now()),
    });
    const wrote = await writeStatusIfChanged(this.registries, registry, status);
    if (generation !== undefined) this.discovered.set(key, generation);

    if (wrote) {
      this.logger.debug(
        { key, phase: status.phase, available: status.availableToolsCount },
        'status written',
      );
    }
    const event = phaseEvent(phaseBefore, status);
    if (event !== undefined) {
      await this.deps.recorder.record(registry, event.type, event.reason, event.message);
    }
    return { resyncAfterMs: this.deps.rediscoverMs };
  }

  /** Reports Pending while a new generation is discovered; returns the object as written. */
  private async writePending(registry: ToolRegistry): Promise<ToolRegistry> {
    const pending = registryStatus({
      results: [],
      generation: registry.metadata.generation,
      previousConditions: registry.status?.conditions,
      now: new Date(this.now()),
    });
    if (!statusChanged(registry.status, pending)) return registry;
    return this.registries.replaceStatus({ ...registry, status: pending });
  }
}

function keyOf(namespace: string | undefined, name: string | undefined): string {
  return `${namespace ?? ''}/${name ?? ''}`;
}
