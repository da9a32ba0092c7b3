import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors, successStatus } from '../api/api-error.js';
import type { Resources } from '../api/resources.js';
import type { KubeObject } from '../contracts.js';
import { isRecord, metaOf } from '../objects/object-meta.js';
import type { ResourceType } from '../registry/resource-type.js';
import type { LogLine, PodLogs } from '../storage/pod-logs.js';
import { queryFlag } from '../query/query-boolean.js';
import type { Store } from '../storage/store.js';
import { readBody } from './request-body.js';

/** The container a log request means: the one named, or the pod's only one. */
export function containerOf(pod: KubeObject, requested: string | null): string {
  const spec = isRecord(pod['spec']) ? pod['spec'] : {};
  const names = ['initContainers', 'containers', 'ephemeralContainers'].flatMap((list) =>
    Array.isArray(spec[list]) ? spec[list].filter(isRecord).map((c) => String(c['name'])) : [],
  );
  const name = metaOf(pod).name!;
  if (requested) {
    if (!names.includes(requested)) {
      throw errors.badRequest(`container ${requested} is not valid for pod ${name}`);
    }
    return requested;
  }
  const main = Array.isArray(spec['containers']) ? spec['containers'].filter(isRecord) : [];
  if (main.length === 1) return String(main[0]!['name']);
  throw errors.badRequest(
    `a container name must be specified for pod ${name}, choose one of: [${main.map((c) => String(c['name'])).join(' ')}]`,
  );
}

function format(lines: readonly LogLine[], timestamps: boolean): string {
  return lines.map((l) => (timestamps ? `${l.time} ${l.line}\n` : `${l.line}\n`)).join('');
}

/**
 * GET pods/<name>/log, with container, tailLines, limitBytes, sinceSeconds, sinceTime, timestamps and
 * follow (which streams lines as they are appended until the pod goes or the client leaves).
 */
export function readPodLog(
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
  deps: { resources: Resources; logs: PodLogs; store: Store; type: ResourceType; now: number },
  namespace: string,
  name: string,
): void {
  const pod = deps.resources.get(deps.type, namespace, name);
  const container = containerOf(pod, query.get('container'));
  const uid = metaOf(pod).uid!;
  const timestamps = queryFlag(query, 'timestamps');
  let lines = deps.logs.read(uid, container);
  const since = query.get('sinceSeconds')
    ? deps.now - Number(query.get('sinceSeconds')) * 1000
    : query.get('sinceTime')
      ? Date.parse(query.get('sinceTime')!)
      : undefined;
  if (since !== undefined && !Number.isNaN(since)) {
    lines = lines.filter((l) => Date.parse(l.time.replace(/(\.\d{3})\d+Z$/, '$1Z')) >= since);
  }
  const tail = query.get('tailLines');
  if (tail !== null && Number(tail) >= 0)
    lines = lines.slice(Math.max(0, lines.length - Number(tail)));
  let text = format(lines, timestamps);
  const limit = query.get('limitBytes');
  if (limit !== null && Number(limit) > 0)
    text = Buffer.from(text).subarray(0, Number(limit)).toString();
  res.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-cache, private' });
  if (!queryFlag(query, 'follow')) {
    res.end(text);
    return;
  }
  res.write(text);
  const stopFollowing = deps.logs.follow(uid, container, (added) =>
    res.write(format(added, timestamps)),
  );
  const stopWatching = deps.store.subscribe((change) => {
    if (
      change.type === 'DELETED' &&
      change.resource === 'pods' &&
      metaOf(change.object).uid === uid
    ) {
      done();
      res.end();
    }
  });
  const done = () => {
    stopFollowing();
    stopWatching();
  };
  req.on('close', done);
  res.on('close', done);
}

/**
 * POST pods/<name>/log (not a Kubernetes API): appends the body's text to a container's log, for
 * whoever plays the container, since nothing here runs one.
 */
export async function appendPodLogRequest(
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
  deps: { resources: Resources; logs: PodLogs; type: ResourceType; now: number },
  namespace: string,
  name: string,
): Promise<void> {
  const pod = deps.resources.get(deps.type, namespace, name);
  const container = containerOf(pod, query.get('container'));
  deps.logs.append(metaOf(pod).uid!, container, await readBody(req), new Date(deps.now));
  const status = successStatus({ name, kind: 'pods' });
  res.writeHead(201, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ ...status, code: 201 }));
}
