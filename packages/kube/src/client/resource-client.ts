import type { ObjectMeta } from '../object-meta.js';
import { PATCH_TYPES, type PatchType, type Query, type RestClient } from './rest.js';
import { apiVersionOf, resourcePath, type ApiResource } from './kinds.js';

/** Any object of the API, as this layer reads it: metadata may lack a name (generateName). */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: Partial<ObjectMeta>;
}

export interface ListOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
}

export interface ObjectList<T> {
  items: T[];
  metadata: { resourceVersion?: string; continue?: string };
}

export interface WatchEvent<T> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: T;
}

/** Typed operations on one kind: the verbs of the Kubernetes API, with typed errors. */
export class ResourceClient<T extends KubeObject> {
  constructor(
    private readonly rest: RestClient,
    readonly kind: ApiResource,
  ) {}

  private path(namespace: string | undefined, name?: string, subresource?: string): string {
    return resourcePath(this.kind, {
      namespace,
      ...(name === undefined ? {} : { name }),
      ...(subresource === undefined ? {} : { subresource }),
    });
  }

  get(name: string, namespace?: string): Promise<T> {
    return this.rest.request<T>('GET', this.path(namespace, name));
  }

  list(options: ListOptions = {}): Promise<ObjectList<T>> {
    const query: Query = {
      labelSelector: options.labelSelector,
      fieldSelector: options.fieldSelector,
      limit: options.limit,
      continue: options.continue,
      resourceVersion: options.resourceVersion,
    };
    return this.rest.request<ObjectList<T>>('GET', this.path(options.namespace), { query });
  }

  /** Every object, following continue tokens page by page. */
  async listAll(options: Omit<ListOptions, 'continue'> = {}): Promise<ObjectList<T>> {
    const items: T[] = [];
    let page = await this.list({ limit: 500, ...options });
    items.push(...page.items);
    while (page.metadata.continue) {
      page = await this.list({ limit: 500, ...options, continue: page.metadata.continue });
      items.push(...page.items);
    }
    return { items, metadata: { resourceVersion: page.metadata.resourceVersion } };
  }

  create(object: T): Promise<T> {
    const body = { apiVersion: apiVersionOf(this.kind), kind: this.kind.kind, ...object };
    return this.rest.request<T>('POST', this.path(object.metadata?.namespace), { body });
  }

  /** PUT: fails with ConflictError when the object changed since its resourceVersion. */
  replace(object: T): Promise<T> {
    const { name, namespace } = this.identity(object);
    return this.rest.request<T>('PUT', this.path(namespace, name), { body: object });
  }

  /** PUT of the status subresource: only status changes. */
  replaceStatus(object: T): Promise<T> {
    const { name, namespace } = this.identity(object);
    return this.rest.request<T>('PUT', this.path(namespace, name, 'status'), { body: object });
  }

  patch(
    name: string,
    patch: unknown,
    options: {
      namespace?: string;
      type?: PatchType;
      subresource?: 'status' | 'scale';
      fieldManager?: string;
      force?: boolean;
    } = {},
  ): Promise<T> {
    const type = options.type ?? 'merge';
    return this.rest.request<T>('PATCH', this.path(options.namespace, name, options.subresource), {
      body: patch,
      contentType: PATCH_TYPES[type],
      query: { fieldManager: options.fieldManager, force: options.force },
    });
  }

  /** Server-side apply of the object as the field manager's desired state. */
  apply(object: T, fieldManager: string, force = true): Promise<T> {
    const { name, namespace } = this.identity(object);
    const body = { apiVersion: apiVersionOf(this.kind), kind: this.kind.kind, ...object };
    return this.patch(name, JSON.stringify(body), {
      ...(namespace === undefined ? {} : { namespace }),
      type: 'apply',
      fieldManager,
      force,
    });
  }

  delete(
    name: string,
    namespace?: string,
    propagationPolicy: 'Background' | 'Foreground' | 'Orphan' = 'Background',
  ): Promise<unknown> {
    return this.rest.request('DELETE', this.path(namespace, name), {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy },
    });
  }

  /** Watches the collection from a resourceVersion; returns the function that stops it. */
  watch(
    options: ListOptions & { allowWatchBookmarks?: boolean; timeoutSeconds?: number },
    onEvent: (event: WatchEvent<T>) => void,
    done: (err: unknown) => void,
  ): Promise<() => void> {
    return this.rest.watch(
      this.path(options.namespace),
      {
        labelSelector: options.labelSelector,
        fieldSelector: options.fieldSelector,
        resourceVersion: options.resourceVersion,
        allowWatchBookmarks: options.allowWatchBookmarks ?? true,
        timeoutSeconds: options.timeoutSeconds,
      },
      (type, object) => onEvent({ type: type as WatchEvent<T>['type'], object: object as T }),
      done,
    );
  }

  private identity(object: T): { name: string; namespace: string | undefined } {
    const name = object.metadata?.name;
    if (name === undefined) throw new TypeError(`a ${this.kind.kind} without metadata.name`);
    return { name, namespace: object.metadata?.namespace };
  }
}
