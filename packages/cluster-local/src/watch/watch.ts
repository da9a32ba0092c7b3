import { errors } from '../api/api-error.js';
import { served } from '../api/resources.js';
import type { KubeObject } from '../contracts.js';
import type { ObjectMatcher } from '../query/object-matcher.js';
import { apiVersionOf, type ResourceType } from '../registry/resource-type.js';
import type { StoredChange, Store } from '../storage/store.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent {
  type: WatchEventType;
  object: KubeObject;
}

export interface WatchRequest {
  type: ResourceType;
  /** Undefined watches every namespace. */
  namespace?: string;
  matches: ObjectMatcher;
  /** '' or absent: the current objects as ADDED events first; '0' the same; a version: resume after it. */
  resourceVersion?: string;
  sendInitialEvents?: boolean;
  allowBookmarks: boolean;
  bookmarkIntervalMs: number;
  timeoutMs: number;
}

export interface WatchSink {
  send(event: WatchEvent): void;
  /** The watch is over (timeout, expiry): the stream should end. */
  end(): void;
}

/**
 * One watch: replays what it must (the current objects, or the changes after a resourceVersion from
 * the change log), then streams live changes as they commit. A version older than the log gets one
 * 410 Expired ERROR event and the end. Returns the stop function.
 */
export function startWatch(store: Store, request: WatchRequest, sink: WatchSink): () => void {
  const { type } = request;
  const namespace = type.namespaced ? request.namespace : undefined;
  const rv = request.resourceVersion ?? '';
  const inScope = (change: { resource: string; namespace: string }) =>
    change.resource === type.storage && (namespace === undefined || change.namespace === namespace);

  const translate = (change: StoredChange): WatchEvent | undefined => {
    if (!inScope(change)) return undefined;
    const now = request.matches(change.object);
    if (change.type !== 'MODIFIED')
      return now ? { type: change.type, object: served(type, change.object) } : undefined;
    if (!change.previous)
      return now ? { type: 'MODIFIED', object: served(type, change.object) } : undefined;
    const before = request.matches(change.previous);
    if (now && before) return { type: 'MODIFIED', object: served(type, change.object) };
    if (now) return { type: 'ADDED', object: served(type, change.object) };
    if (before) return { type: 'DELETED', object: served(type, change.object) };
    return undefined;
  };

  const bookmark = (annotations?: Record<string, string>): WatchEvent => ({
    type: 'BOOKMARK',
    object: {
      kind: type.kind,
      apiVersion: apiVersionOf(type),
      metadata: {
        resourceVersion: String(store.resourceVersion),
        ...(annotations ? { annotations } : {}),
      },
    },
  });

  const initial = rv === '' || rv === '0' || request.sendInitialEvents === true;
  let replay: StoredChange[] = [];
  if (!initial) {
    const version = Number(rv);
    if (!Number.isSafeInteger(version) || version < 0) {
      throw errors.badRequest(`invalid resource version: ${JSON.stringify(rv)}`);
    }
    const changes = store.changesSince(version);
    if (!changes) {
      const expired = errors.expired(
        `too old resource version: ${version} (${store.compactedThrough + 1})`,
      ).status;
      sink.send({ type: 'ERROR', object: expired as unknown as KubeObject });
      sink.end();
      return () => undefined;
    }
    replay = changes;
  }

  if (initial) {
    for (const object of store.list(type.storage, namespace)) {
      if (request.matches(object)) sink.send({ type: 'ADDED', object: served(type, object) });
    }
    if (request.sendInitialEvents && request.allowBookmarks) {
      sink.send(bookmark({ 'k8s.io/initial-events-end': 'true' }));
    }
  } else {
    for (const change of replay) {
      const event = translate(change);
      if (event) sink.send(event);
    }
  }

  // The replay and the subscription happen in the same turn: no change can fall between them.
  const unsubscribe = store.subscribe((change) => {
    const event = translate(change);
    if (event) sink.send(event);
  });
  const bookmarks = request.allowBookmarks
    ? setInterval(() => sink.send(bookmark()), request.bookmarkIntervalMs)
    : undefined;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    unsubscribe();
    clearInterval(bookmarks);
    clearTimeout(timeout);
  };
  const timeout = setTimeout(() => {
    // Kubernetes sends a last bookmark before a watch times out, so the client resumes from it.
    if (request.allowBookmarks) sink.send(bookmark());
    stop();
    sink.end();
  }, request.timeoutMs);
  return stop;
}
