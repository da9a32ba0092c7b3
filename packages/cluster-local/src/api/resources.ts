import { randomUUID } from 'node:crypto';
import type { FieldError, KubeObject } from '../contracts.js';
import {
  copy,
  isRecord,
  jsonEqual,
  metaOf,
  timestamp,
  type ManagedFieldsEntry,
  type ObjectMeta,
} from '../objects/object-meta.js';
import { jsonPatch } from '../patch/json-patch.js';
import { mergePatch } from '../patch/merge-patch.js';
import { ATOMIC_LISTS, builtinListStrategies, type ListStrategies } from '../patch/patch-meta.js';
import { compareFields } from '../patch/field-set.js';
import { clearsEntries, decodeEntries, managerOf, recordUpdate } from '../patch/managed-fields.js';
import { serverSideApply } from '../patch/server-side-apply.js';
import { strategicMerge } from '../patch/strategic-merge.js';
import { continueOf, encodeContinue, expiredContinue } from '../query/continue-token.js';
import { objectMatcher } from '../query/object-matcher.js';
import type { Registry } from '../registry/registry.js';
import { apiVersionOf, type ResourceType } from '../registry/resource-type.js';
import type { Store } from '../storage/store.js';
import { errors, quote } from './api-error.js';
import type { KindStrategy } from './kind-strategy.js';
import { generateName, NAME_RULES, nameProblems } from './names.js';
import type { RequestContext } from './request-context.js';
import { applyScale, scaleOf } from './scale.js';

export type PatchType = 'merge' | 'json' | 'strategic' | 'apply';

/** The patch content types Kubernetes accepts, by what they do. */
export const PATCH_TYPES: Record<string, PatchType> = {
  'application/merge-patch+json': 'merge',
  'application/json-patch+json': 'json',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  /** The one name the request was authorized for (RBAC resourceNames): nothing else is listed. */
  authorizedName?: string;
  limit?: number;
  continue?: string;
}

export interface ListResult {
  items: KubeObject[];
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

export type PropagationPolicy = 'Background' | 'Foreground' | 'Orphan';

export interface DeleteOptions {
  propagationPolicy?: PropagationPolicy;
  preconditions?: { uid?: string; resourceVersion?: string };
}

export interface DeleteResult {
  /** The object as deleted, or as it now waits on its finalizers. */
  object: KubeObject;
  /** Gone now, rather than marked for deletion. */
  removed: boolean;
}

/** Something other than the object itself decides whether a write may go ahead. */
export interface AdmissionRequest {
  operation: 'CREATE' | 'UPDATE';
  type: ResourceType;
  object: KubeObject;
  old?: KubeObject;
  subresource?: string;
  context: RequestContext;
}

/** Throws an ApiError to refuse the write. */
export type AdmissionCheck = (request: AdmissionRequest) => void;

export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

const MODIFIED =
  'the object has been modified; please apply your changes to the latest version and try again';

/**
 * The API's operations on objects with Kubernetes' semantics: names, uids, resourceVersions and
 * optimistic concurrency, generation, finalizers and deletion, status subresources, custom resource
 * schemas, and the four patch types. Reads and writes go to the store; nothing here speaks HTTP.
 */
export class Resources {
  constructor(
    private readonly store: Store,
    readonly registry: Registry,
    private readonly options: {
      strategies: Record<string, KindStrategy>;
      admission: AdmissionCheck[];
    },
  ) {}

  get resourceVersion(): number {
    return this.store.resourceVersion;
  }

  get(type: ResourceType, namespace: string, name: string): KubeObject {
    const stored = this.store.get(type.storage, scopeOf(type, namespace), name);
    if (!stored) throw errors.notFound(type, name);
    return served(type, stored);
  }

  /** The stored object, or undefined (for controllers and checks). */
  find(type: ResourceType, namespace: string, name: string): KubeObject | undefined {
    const stored = this.store.get(type.storage, scopeOf(type, namespace), name);
    return stored && served(type, stored);
  }

  list(type: ResourceType, namespace: string | undefined, options: ListOptions = {}): ListResult {
    const matches = objectMatcher(
      type,
      options.labelSelector,
      options.fieldSelector,
      options.authorizedName,
    );
    const scope = type.namespaced ? namespace : undefined;
    let listVersion = this.store.resourceVersion;
    let start = '';
    let all: KubeObject[] | undefined;
    if (options.continue) {
      const token = continueOf(options.continue);
      start = token.start;
      // A later page shows the objects as they were at the first page's version; -1 (the token a
      // 410 hands out) continues at the current one.
      if (token.resourceVersion > 0) {
        listVersion = token.resourceVersion;
        all = this.store.listAt(type.storage, scope, listVersion);
        if (!all) throw expiredContinue(start);
      }
    }
    all ??= this.store.list(type.storage, scope);
    const items: KubeObject[] = [];
    const limit = options.limit && options.limit > 0 ? options.limit : Infinity;
    let next: string | undefined;
    let remaining = 0;
    for (const object of all) {
      if (start !== '' && keyOf(object) < start) continue;
      if (!matches(object)) continue;
      if (items.length < limit) {
        items.push(served(type, object));
      } else {
        next ??= keyOf(object);
        remaining++;
      }
    }
    const result: ListResult = { items, resourceVersion: String(listVersion) };
    if (next !== undefined) {
      result.continue = encodeContinue({ resourceVersion: listVersion, start: next });
      if (!options.labelSelector && !options.fieldSelector) result.remainingItemCount = remaining;
    }
    return result;
  }

  create(
    type: ResourceType,
    namespace: string,
    body: unknown,
    context: RequestContext,
    /** Server-side apply has recorded the applier's fields already. */
    applied = false,
  ): KubeObject {
    const object = copy(this.checkBody(type, namespace, body));
    const meta = metaOf(object);
    if (!meta.name && meta.generateName) meta.name = generateName(meta.generateName);
    for (const field of SERVER_SET) delete meta[field];
    const now = timestamp(context.now);
    this.strategy(type).prepareForCreate?.(object, now);
    if (type.subresources['status'] && type.crd) delete object['status'];
    this.validate(type, object, undefined, context);
    const name = meta.name!;
    this.admit({ operation: 'CREATE', type, object, context });
    if (this.store.get(type.storage, scopeOf(type, namespace), name)) {
      throw errors.alreadyExists(type, name);
    }
    meta.uid = randomUUID();
    meta.creationTimestamp = now;
    if (this.tracked(type)) meta.generation = 1;
    if (!applied) {
      const entries = decodeEntries(meta.managedFields);
      meta.managedFields = this.recordWrite(type, entries, undefined, object, context);
      if (meta.managedFields.length === 0) delete meta.managedFields;
    }
    if (context.dryRun) return object;
    return served(type, this.store.put(type.storage, stored(type, object)));
  }

  /** PUT: replaces the object (or only its status), with optimistic concurrency. */
  update(
    type: ResourceType,
    namespace: string,
    name: string,
    body: unknown,
    context: RequestContext,
    subresource?: string,
  ): { object: KubeObject; created: boolean } {
    const current = this.store.get(type.storage, scopeOf(type, namespace), name);
    if (!current) {
      if (type.allowCreateOnUpdate && !subresource) {
        return { object: this.create(type, namespace, body, context), created: true };
      }
      throw errors.notFound(type, name);
    }
    const object = this.checkBody(type, namespace, body, name);
    const requested = metaOf(object).resourceVersion;
    if (requested === undefined || requested === '') {
      if (!type.allowUnconditionalUpdate) {
        throw errors.invalid(type, name, [
          {
            reason: 'FieldValueInvalid',
            field: 'metadata.resourceVersion',
            message: 'Invalid value: 0x0: must be specified for an update',
          },
        ]);
      }
    } else if (requested !== metaOf(current).resourceVersion) {
      throw errors.conflict(type, name, MODIFIED);
    }
    return {
      object: this.write(type, served(type, current), object, context, subresource),
      created: false,
    };
  }

  /** PATCH in any of the four types; server-side apply creates a missing object. */
  patch(
    type: ResourceType,
    namespace: string,
    name: string,
    patchType: PatchType,
    patch: unknown,
    context: RequestContext,
    subresource?: string,
  ): { object: KubeObject; created: boolean } {
    const current = this.store.get(type.storage, scopeOf(type, namespace), name);
    if (patchType === 'apply')
      return this.apply(type, namespace, name, current, patch, context, subresource);
    if (!current) throw errors.notFound(type, name);
    const live = served(type, current);
    let patched: unknown;
    switch (patchType) {
      case 'merge':
        patched = mergePatch(live, patch);
        break;
      case 'json':
        patched = jsonPatch(live, patch);
        break;
      case 'strategic':
        if (!type.strategicMerge) {
          throw errors.unsupportedMediaType('application/strategic-merge-patch+json', [
            'application/json-patch+json',
            'application/merge-patch+json',
            'application/apply-patch+yaml',
          ]);
        }
        patched = strategicMerge(live, patch, builtinListStrategies(type.kind));
        break;
    }
    const object = this.checkBody(type, namespace, patched, name);
    const requested = metaOf(object).resourceVersion;
    if (requested !== undefined && requested !== metaOf(current).resourceVersion) {
      throw errors.conflict(type, name, MODIFIED);
    }
    return { object: this.write(type, live, object, context, subresource), created: false };
  }

  private apply(
    type: ResourceType,
    namespace: string,
    name: string,
    current: KubeObject | undefined,
    patch: unknown,
    context: RequestContext,
    subresource: string | undefined,
  ): { object: KubeObject; created: boolean } {
    if (!context.fieldManager) {
      throw errors.badRequest(
        'PATCH, application/apply-patch+yaml requires fieldManager to be set',
      );
    }
    const applied = this.checkBody(type, namespace, patch, name);
    const live = current && served(type, current);
    const skip = subresource === 'status' ? [] : type.subresources['status'] ? ['status'] : [];
    const result = serverSideApply({
      live,
      applied,
      manager: context.fieldManager,
      apiVersion: apiVersionOf(type),
      now: timestamp(context.now),
      strategies: this.listStrategies(type),
      skip,
      force: context.force ?? false,
      ...(subresource ? { subresource } : {}),
    });
    if (!live) {
      const created = this.create(type, namespace, result, context, true);
      return { object: created, created: true };
    }
    metaOf(result).resourceVersion = metaOf(live).resourceVersion;
    return {
      object: this.write(type, live, result, context, subresource, { record: false }),
      created: false,
    };
  }

  /**
   * POST pods/<name>/binding: assigns an unscheduled pod to a node, as a scheduler does. A pod
   * already assigned gets 409, like kube-apiserver's.
   */
  bind(
    type: ResourceType,
    namespace: string,
    name: string,
    binding: unknown,
    context: RequestContext,
  ): KubeObject {
    const target = isRecord(binding) && isRecord(binding['target']) ? binding['target'] : {};
    const node = target['name'];
    if (typeof node !== 'string' || node === '') {
      throw errors.badRequest('a Binding needs target.name, the node to bind the pod to');
    }
    if (target['kind'] !== undefined && target['kind'] !== 'Node') {
      throw errors.badRequest(
        `a pod can only be bound to a Node, not to a ${JSON.stringify(target['kind'])}`,
      );
    }
    const live = this.get(type, namespace, name);
    const spec = isRecord(live['spec']) ? live['spec'] : {};
    const assigned = spec['nodeName'];
    if (typeof assigned === 'string' && assigned !== '') {
      throw errors.conflict(type, name, `pod ${name} is already assigned to node "${assigned}"`);
    }
    const object = copy(live);
    object['spec'] = { ...spec, nodeName: node };
    this.write(type, live, object, context, undefined, { record: false });
    return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };
  }

  /** GET of a scale subresource. */
  getScale(type: ResourceType, namespace: string, name: string): KubeObject {
    if (!type.scale) throw errors.notFound(type, name);
    return scaleOf(this.get(type, namespace, name), type.scale);
  }

  /** PUT or PATCH of a scale subresource, given the Scale the request asks for. */
  setScale(
    type: ResourceType,
    namespace: string,
    name: string,
    scale: KubeObject,
    context: RequestContext,
  ): KubeObject {
    if (!type.scale) throw errors.notFound(type, name);
    const live = this.get(type, namespace, name);
    const requested = metaOf(scale).resourceVersion;
    if (requested && requested !== metaOf(live).resourceVersion) {
      throw errors.conflict(type, name, MODIFIED);
    }
    const object = copy(live);
    applyScale(object, type.scale, scale);
    const written = this.write(type, live, object, context, undefined, { subresource: 'scale' });
    return scaleOf(written, type.scale);
  }

  delete(
    type: ResourceType,
    namespace: string,
    name: string,
    options: DeleteOptions,
    context: RequestContext,
  ): DeleteResult {
    const current = this.store.get(type.storage, scopeOf(type, namespace), name);
    if (!current) throw errors.notFound(type, name);
    const meta = metaOf(current);
    const { preconditions } = options;
    if (preconditions?.uid && preconditions.uid !== meta.uid) {
      throw errors.conflict(
        type,
        name,
        `Precondition failed: UID in precondition: ${preconditions.uid}, UID in object meta: ${meta.uid}`,
      );
    }
    if (preconditions?.resourceVersion && preconditions.resourceVersion !== meta.resourceVersion) {
      throw errors.conflict(
        type,
        name,
        `Precondition failed: ResourceVersion in precondition: ${preconditions.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion}`,
      );
    }
    const finalizers = [...(meta.finalizers ?? [])];
    const policy = options.propagationPolicy;
    if (policy === 'Orphan' && !finalizers.includes(ORPHAN_FINALIZER))
      finalizers.push(ORPHAN_FINALIZER);
    if (policy === 'Foreground' && !finalizers.includes(FOREGROUND_FINALIZER)) {
      finalizers.push(FOREGROUND_FINALIZER);
    }
    const waits = finalizers.length > 0 || (this.strategy(type).waitsOnDelete?.(current) ?? false);
    if (!waits) {
      if (context.dryRun) return { object: served(type, current), removed: true };
      const removed = this.store.remove(type.storage, meta.namespace ?? '', name)!;
      return { object: served(type, removed), removed: true };
    }
    if (meta.deletionTimestamp && jsonEqual(finalizers, meta.finalizers ?? [])) {
      return { object: served(type, current), removed: false };
    }
    const marked = copy(current);
    const markedMeta = metaOf(marked);
    markedMeta.deletionTimestamp ??= timestamp(context.now);
    markedMeta.deletionGracePeriodSeconds = 0;
    // Kinds with a generation mark the start of a graceful deletion with a new one.
    if (!meta.deletionTimestamp && meta.generation) markedMeta.generation = meta.generation + 1;
    if (finalizers.length > 0) markedMeta.finalizers = finalizers;
    if (type.storage === 'namespaces') marked['status'] = { phase: 'Terminating' };
    if (context.dryRun) return { object: served(type, marked), removed: false };
    return { object: served(type, this.store.put(type.storage, marked)), removed: false };
  }

  /** DELETE of a collection: each matching object as by its own DELETE. */
  deleteCollection(
    type: ResourceType,
    namespace: string | undefined,
    listOptions: ListOptions,
    options: DeleteOptions,
    context: RequestContext,
  ): KubeObject[] {
    const { items } = this.list(type, namespace, { ...listOptions, limit: 0, continue: '' });
    return items.map((item) => {
      const meta = metaOf(item);
      return this.delete(type, meta.namespace ?? '', meta.name!, options, context).object;
    });
  }

  /**
   * Changes an object as a controller does (its finalizers, ownerReferences, status), through the
   * same checks as an update; nothing happens when the object is gone.
   */
  mutate(
    type: ResourceType,
    namespace: string,
    name: string,
    change: (object: KubeObject) => void,
    context: RequestContext,
    subresource?: string,
  ): KubeObject | undefined {
    const live = this.find(type, namespace, name);
    if (!live) return undefined;
    const object = copy(live);
    change(object);
    return this.write(type, live, object, context, subresource);
  }

  /** Removes an object now, whatever its finalizers (controllers finishing a deletion). */
  remove(type: ResourceType, namespace: string, name: string): KubeObject | undefined {
    return this.store.remove(type.storage, scopeOf(type, namespace), name);
  }

  /**
   * The common end of update, patch and apply: merges what may change into the live object,
   * validates and defaults, records the writer's fields, bumps generation when what it tracks
   * changed, and writes unless the result is the stored object: a write that changes nothing
   * answers the stored object, with no new resourceVersion and no event.
   */
  private write(
    type: ResourceType,
    live: KubeObject,
    body: KubeObject,
    context: RequestContext,
    subresource?: string,
    /** `record: false` when the caller has recorded managedFields (apply) or none are kept. */
    options: { record?: boolean; subresource?: string } = {},
  ): KubeObject {
    // The request may share parts with the stored object, which must never change in place.
    const requested = copy(body);
    const liveMeta = metaOf(live);
    let object: KubeObject;
    if (subresource === 'status') {
      object = copy(live);
      if (requested['status'] === undefined) delete object['status'];
      else object['status'] = requested['status'];
    } else if (subresource === 'finalize') {
      // A namespace's spec.finalizers change only through /finalize.
      object = copy(live);
      const spec = isRecord(requested['spec']) ? requested['spec'] : {};
      object['spec'] = {
        ...(isRecord(live['spec']) ? live['spec'] : {}),
        finalizers: spec['finalizers'] ?? [],
      };
    } else {
      object = requested;
      const meta = metaOf(object);
      for (const field of PRESERVED) {
        if (liveMeta[field] === undefined) delete meta[field];
        else (meta as Record<string, unknown>)[field] = liveMeta[field];
      }
      if (!Array.isArray(meta.managedFields) && liveMeta.managedFields) {
        meta.managedFields = liveMeta.managedFields;
      }
      if (type.subresources['status']) {
        if (live['status'] === undefined) delete object['status'];
        else object['status'] = copy(live['status']);
      }
      this.strategy(type).prepareForUpdate?.(object, live);
    }
    const meta = metaOf(object);
    if (options.record === false && subresource !== undefined) {
      // Server-side apply to a subresource recorded its entry on the object it was given.
      meta.managedFields = metaOf(requested).managedFields ?? [];
    }
    meta.resourceVersion = liveMeta.resourceVersion;
    if (liveMeta.generation === undefined) delete meta.generation;
    else meta.generation = liveMeta.generation;
    if (liveMeta.deletionTimestamp) {
      const added = (meta.finalizers ?? []).filter((f) => !(liveMeta.finalizers ?? []).includes(f));
      if (added.length > 0) {
        throw errors.invalid(type, liveMeta.name!, [
          {
            reason: 'FieldValueForbidden',
            field: 'metadata.finalizers',
            message: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map(quote).join(', ')}}`,
          },
        ]);
      }
    }
    this.validate(type, object, live, context);
    const tracked = this.tracked(type);
    if (tracked && !jsonEqual(tracked(object), tracked(live))) {
      meta.generation = (liveMeta.generation ?? 0) + 1;
    }
    if (options.record !== false) {
      // Entries a client sent replace the stored ones; an update that leaves them out keeps them.
      const sent = subresource === undefined ? meta.managedFields : undefined;
      const decoded = decodeEntries(sent);
      // Cleared entries leave an existing object untracked until it is applied.
      const entries = clearsEntries(sent)
        ? []
        : decoded.length > 0
          ? decoded
          : (liveMeta.managedFields ?? []);
      const recordAs = options.subresource ?? subresource;
      meta.managedFields = this.recordWrite(type, entries, live, object, context, recordAs);
      if (meta.managedFields.length === 0) delete meta.managedFields;
    }
    this.admit({
      operation: 'UPDATE',
      type,
      object,
      old: live,
      context,
      ...(subresource ? { subresource } : {}),
    });
    if (jsonEqual(object, live)) return live;
    if (context.dryRun) return object;
    if (
      meta.deletionTimestamp &&
      (meta.finalizers ?? []).length === 0 &&
      !(this.strategy(type).waitsOnDelete?.(object) ?? false)
    ) {
      // The last finalizer is gone: the deletion completes.
      this.store.put(type.storage, stored(type, object));
      const removed = this.store.remove(type.storage, meta.namespace ?? '', meta.name!)!;
      return served(type, removed);
    }
    return served(type, this.store.put(type.storage, stored(type, object)));
  }

  /** Checks and normalises a request body: an object of this kind, in this namespace, with this name. */
  private checkBody(
    type: ResourceType,
    namespace: string,
    body: unknown,
    name?: string,
  ): KubeObject {
    if (!isRecord(body)) throw errors.badRequest('the body of the request must be a JSON object');
    const object = body as KubeObject;
    const apiVersion = apiVersionOf(type);
    if (object.apiVersion !== undefined && object.apiVersion !== apiVersion) {
      throw errors.badRequest(
        `the API version in the data (${String(object.apiVersion)}) does not match the expected API version (${apiVersion})`,
      );
    }
    if (object.kind !== undefined && object.kind !== type.kind) {
      throw errors.badRequest(
        `the kind in the data (${String(object.kind)}) does not match the expected kind (${type.kind})`,
      );
    }
    object.apiVersion = apiVersion;
    object.kind = type.kind;
    const meta = metaOf(object);
    if (type.namespaced) {
      if (meta.namespace && meta.namespace !== namespace) {
        throw errors.badRequest(
          'the namespace of the provided object does not match the namespace sent on the request',
        );
      }
      meta.namespace = namespace;
    } else {
      delete meta.namespace;
    }
    if (name !== undefined) {
      if (meta.name && meta.name !== name) {
        throw errors.badRequest(
          `the name of the object (${meta.name}) does not match the name on the URL (${name})`,
        );
      }
      meta.name = name;
    }
    return object;
  }

  private validate(
    type: ResourceType,
    object: KubeObject,
    old: KubeObject | undefined,
    context: RequestContext,
  ): void {
    const meta = metaOf(object);
    const problems: FieldError[] = [];
    if (!meta.name) {
      problems.push({
        reason: 'FieldValueRequired',
        field: 'metadata.name',
        message: 'Required value: name or generateName is required',
      });
    } else if (!old) {
      problems.push(...nameProblems(meta.name, NAME_RULES[type.storage] ?? 'subdomain'));
    }
    problems.push(...metadataProblems(meta));
    const strictlyRefused = (unknown: readonly string[]) =>
      errors.badRequest(
        `${type.kind} in version ${quote(type.version)} cannot be handled as a ${type.kind}: strict decoding error: ${unknown.map((path) => `unknown field ${quote(path)}`).join(', ')}`,
      );
    if (!type.schema && context.strictFields) {
      const unknown = context.unknownBuiltinFields?.(object) ?? [];
      if (unknown.length > 0) throw strictlyRefused(unknown);
    }
    if (type.schema) {
      const before = context.strictFields ? copy(object) : undefined;
      type.schema.prune(object);
      const unknown = before ? prunedPaths(before, object) : [];
      if (unknown.length > 0) throw strictlyRefused(unknown);
      type.schema.applyDefaults(object);
      problems.push(...type.schema.validate(object, old));
    }
    problems.push(...(this.strategy(type).validate?.(object, old) ?? []));
    if (problems.length > 0) throw errors.invalid(type, meta.name ?? '', problems);
  }

  /** What a kind's generation follows, or undefined for kinds without one. */
  private tracked(type: ResourceType): ((object: KubeObject) => unknown) | undefined {
    const strategy = this.strategy(type);
    if (strategy.generation) return strategy.generation;
    // Custom resources: everything but metadata and status.
    return type.crd ? specOf : undefined;
  }

  /** The managedFields after a create, update or patch recorded as an Update by its manager. */
  private recordWrite(
    type: ResourceType,
    entries: ManagedFieldsEntry[],
    live: KubeObject | undefined,
    object: KubeObject,
    context: RequestContext,
    subresource?: string,
  ): ManagedFieldsEntry[] {
    const strategies = this.listStrategies(type);
    const skip = subresource !== 'status' && type.subresources['status'] ? ['status'] : [];
    return recordUpdate({
      entries,
      existed: live !== undefined,
      changes: compareFields(live ?? {}, object, strategies, skip),
      key: {
        manager: managerOf(context.fieldManager, context.userAgent ?? IN_PROCESS_AGENT),
        operation: 'Update',
        apiVersion: apiVersionOf(type),
        ...(subresource ? { subresource } : {}),
      },
      now: timestamp(context.now),
    });
  }

  private admit(request: AdmissionRequest): void {
    for (const check of this.options.admission) check(request);
  }

  private strategy(type: ResourceType): KindStrategy {
    return this.options.strategies[type.storage] ?? {};
  }

  private listStrategies(type: ResourceType): ListStrategies {
    return type.strategicMerge ? builtinListStrategies(type.kind) : ATOMIC_LISTS;
  }
}

/** The manager of writes the cluster makes itself (its controllers), which carry no User-Agent. */
const IN_PROCESS_AGENT = 'paddock-cluster';

/** Metadata fields a client may not set on create. */
const SERVER_SET = [
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'selfLink',
] as const;

/** Metadata fields an update keeps from the live object. */
const PRESERVED = [
  'uid',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'generateName',
] as const;

function metadataProblems(meta: ObjectMeta): FieldError[] {
  const problems: FieldError[] = [];
  for (const field of ['labels', 'annotations'] as const) {
    const map = meta[field];
    if (map === undefined) continue;
    if (!isRecord(map) || Object.values(map).some((v) => typeof v !== 'string')) {
      problems.push({
        reason: 'FieldValueTypeInvalid',
        field: `metadata.${field}`,
        message: 'Invalid value: "object": must be a map of strings',
      });
    }
  }
  return problems;
}

/** The fields of `before` that pruning left out of `after`, as Kubernetes writes their paths. */
function prunedPaths(before: unknown, after: unknown, path = ''): string[] {
  if (Array.isArray(before) && Array.isArray(after)) {
    return before.flatMap((item, i) => prunedPaths(item, after[i], `${path}[${i}]`));
  }
  if (!isRecord(before) || !isRecord(after)) return [];
  return Object.keys(before).flatMap((key) => {
    const child = path === '' ? key : `${path}.${key}`;
    return Object.hasOwn(after, key) ? prunedPaths(before[key], after[key], child) : [child];
  });
}

/** Everything generation tracks: the object but its metadata and status. */
function specOf(object: KubeObject): Record<string, unknown> {
  const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...spec } = object;
  return spec;
}

function scopeOf(type: ResourceType, namespace: string): string {
  return type.namespaced ? namespace : '';
}

function keyOf(object: KubeObject): string {
  const meta = metaOf(object);
  return `${meta.namespace ?? ''}/${meta.name}`;
}

/** The stored object as this type serves it (another version, or the other Event API). */
export function served(type: ResourceType, object: KubeObject): KubeObject {
  if (type.conversion) return type.conversion.fromStored(object);
  const apiVersion = apiVersionOf(type);
  return object.apiVersion === apiVersion ? object : { ...object, apiVersion };
}

function stored(type: ResourceType, object: KubeObject): KubeObject {
  if (type.conversion) return type.conversion.toStored(object);
  return object.apiVersion === type.storedApiVersion
    ? object
    : { ...object, apiVersion: type.storedApiVersion };
}
