import type { KubeObject, ListOptions, ResourceClient, WatchEvent } from './resource-client.js';

export type InformerEvent = 'add' | 'update' | 'delete';
export type InformerHandler<T> = (event: InformerEvent, object: T, old?: T) => void;
/**
 * What an informer keeps of each object it receives. A projection to the fields its readers use
 * (client-go's SetTransform) is what bounds the memory of a cache of thousands of objects; a type
 * of its own keeps the partial copy from being written back through the kind's client.
 */
export type InformerTransform<T extends KubeObject, S extends KubeObject> = (object: T) => S;

/** Wait before watching again after an error, doubling up to the maximum. */
const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 30_000;
/** A watch the server may end, after which it is resumed from the last resourceVersion. */
const WATCH_TIMEOUT_SECONDS = 300;

function keyOf(object: KubeObject): string {
  return `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`;
}

/** managedFields is often the bulk of an object and no reader of a local copy needs it. */
export function withoutManagedFields<T extends KubeObject>(object: T): T {
  const metadata = object.metadata;
  if (metadata?.managedFields === undefined) return object;
  const { managedFields: _dropped, ...rest } = metadata;
  return { ...object, metadata: rest };
}

/**
 * Name, namespace and resourceVersion only: for informers whose objects just trigger work on
 * their own key, or whose version is all that is read.
 */
export function identityOnly(object: KubeObject): KubeObject & { metadata: ObjectIdentity } {
  const { name = '', namespace, resourceVersion } = object.metadata ?? {};
  return {
    metadata: {
      name,
      ...(namespace === undefined ? {} : { namespace }),
      ...(resourceVersion === undefined ? {} : { resourceVersion }),
    },
  };
}

/** What identityOnly keeps. */
export interface ObjectIdentity {
  name: string;
  namespace?: string;
  resourceVersion?: string;
}

function isGone(err: unknown): boolean {
  const status = (err as { status?: number; code?: number; statusCode?: number } | null) ?? {};
  return status.status === 410 || status.code === 410 || status.statusCode === 410;
}

/**
 * A local copy of one kind's objects, kept current by list + watch: the watch resumes from the
 * last resourceVersion it saw (bookmarks included) after the server ends it, and the copy is
 * listed again when that version has expired (410 Gone). Handlers see adds, updates and deletes,
 * relists included (a relist reports what changed while the watch was down). The copy holds what
 * the transform keeps of each object (S), which must keep its name, namespace and
 * resourceVersion: they key the copy and tell a changed object from one seen before.
 */
export class Informer<T extends KubeObject, S extends KubeObject = T> {
  private readonly cache = new Map<string, S>();
  private readonly handlers = new Set<InformerHandler<S>>();
  private resourceVersion: string | undefined;
  private stopWatch: (() => void) | undefined;
  private stopped = false;
  private retryMs = RETRY_MIN_MS;
  private retryTimer: NodeJS.Timeout | undefined;
  private markSynced!: () => void;
  /** Resolves once the first list is in the cache. */
  readonly synced: Promise<void>;

  constructor(
    private readonly client: ResourceClient<T>,
    private readonly options: Pick<
      ListOptions,
      'namespace' | 'labelSelector' | 'fieldSelector'
    > = {},
    private readonly onError: (err: unknown) => void = () => {},
    /**
     * What is kept of each object (and handed to handlers); by default all but managedFields, in
     * which case S is T (a projection to another type comes with its transform).
     */
    private readonly transform: InformerTransform<T, S> = withoutManagedFields as unknown as (
      object: T,
    ) => S,
  ) {
    this.synced = new Promise((resolve) => (this.markSynced = resolve));
  }

  on(handler: InformerHandler<S>): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  start(): this {
    void this.relist();
    return this;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.stopWatch?.();
  }

  get(name: string, namespace?: string): S | undefined {
    return this.cache.get(`${namespace ?? ''}/${name}`);
  }

  list(): S[] {
    return [...this.cache.values()];
  }

  /** The objects kept, without copying them into an array (the copy may hold thousands). */
  values(): IterableIterator<S> {
    return this.cache.values();
  }

  private emit(event: InformerEvent, object: S, old?: S): void {
    for (const handler of this.handlers) handler(event, object, old);
  }

  private async relist(): Promise<void> {
    if (this.stopped) return;
    try {
      const list = await this.client.listAll(this.options);
      const seen = new Set<string>();
      for (const item of list.items) {
        const object = this.transform(item);
        const key = keyOf(object);
        seen.add(key);
        this.upsert(key, object);
      }
      for (const [key, object] of this.cache) {
        if (!seen.has(key)) {
          this.cache.delete(key);
          this.emit('delete', object);
        }
      }
      this.resourceVersion = list.metadata.resourceVersion;
      this.markSynced();
      this.retryMs = RETRY_MIN_MS;
      await this.watch();
    } catch (err) {
      this.onError(err);
      this.retry(() => void this.relist());
    }
  }

  private upsert(key: string, object: S): void {
    const old = this.cache.get(key);
    if (old?.metadata?.resourceVersion === object.metadata?.resourceVersion) return;
    this.cache.set(key, object);
    if (old) this.emit('update', object, old);
    else this.emit('add', object);
  }

  private async watch(): Promise<void> {
    if (this.stopped) return;
    let gone = false;
    const onEvent = (event: WatchEvent<T>) => {
      if (event.type === 'ERROR') {
        if (isGone(event.object)) gone = true;
        return;
      }
      const version = event.object.metadata?.resourceVersion;
      if (version !== undefined) this.resourceVersion = version;
      if (event.type === 'BOOKMARK') return;
      const object = this.transform(event.object);
      const key = keyOf(object);
      if (event.type === 'DELETED') {
        const old = this.cache.get(key);
        this.cache.delete(key);
        this.emit('delete', object, old);
      } else {
        this.upsert(key, object);
      }
    };
    const done = (err: unknown) => {
      this.stopWatch = undefined;
      if (this.stopped) return;
      if (gone || isGone(err)) return void this.relist();
      if (err) {
        this.onError(err);
        return this.retry(
          () => void this.watch().catch(() => this.retry(() => void this.relist())),
        );
      }
      void this.watch().catch(() => this.retry(() => void this.relist()));
    };
    this.stopWatch = await this.client.watch(
      {
        ...this.options,
        ...(this.resourceVersion === undefined ? {} : { resourceVersion: this.resourceVersion }),
        allowWatchBookmarks: true,
        timeoutSeconds: WATCH_TIMEOUT_SECONDS,
      },
      onEvent,
      done,
    );
  }

  private retry(again: () => void): void {
    if (this.stopped) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    this.retryTimer = setTimeout(again, wait);
  }
}
