import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors, successStatus } from '../api/api-error.js';
import type { RequestContext } from '../api/request-context.js';
import {
  PATCH_TYPES,
  type DeleteOptions,
  type ListOptions,
  type PropagationPolicy,
} from '../api/resources.js';
import type { KubeObject, UserInfo } from '../contracts.js';
import { isRecord, metaOf } from '../objects/object-meta.js';
import { jsonPatch } from '../patch/json-patch.js';
import { mergePatch } from '../patch/merge-patch.js';
import { escapeFieldValue } from '../query/field-selector.js';
import { objectMatcher } from '../query/object-matcher.js';
import { queryFlag } from '../query/query-boolean.js';
import { apiVersionOf, type ResourceType } from '../registry/resource-type.js';
import { tableVersion, toTable, type IncludeObject } from '../table/table.js';
import { startWatch, type WatchEvent } from '../watch/watch.js';
import type { ServerDeps } from './server-deps.js';
import { builtinSchemasOf } from './openapi.js';
import { appendPodLogRequest, readPodLog } from './pod-log.js';
import { mediaType, parseBody, readBody } from './request-body.js';
import type { RequestInfo } from './request-info.js';
import { sendJson } from './responses.js';
import { review } from './reviews.js';
import { tokenRequest } from './token-request.js';

type ResourceInfo = Extract<RequestInfo, { isResource: true }>;

/** Watches stream until this much is waiting for a slow client; then the client must resume. */
const WATCH_BACKLOG_LIMIT = 32 * 1024 * 1024;

const BODY_TYPES = ['application/json', 'application/yaml', ''];

/** A request for a resource: checks the path against the kind, then does the verb. */
export async function handleResource(
  req: IncomingMessage,
  res: ServerResponse,
  info: ResourceInfo,
  query: URLSearchParams,
  user: UserInfo,
  deps: ServerDeps,
): Promise<void> {
  const type = deps.registry.get(info.group, info.version, info.resource);
  if (!type) throw errors.pathNotFound();
  const { namespace, subresource } = info;
  const name = info.pathName;
  if (
    !type.namespaced &&
    namespace !== '' &&
    !(type.plural === 'namespaces' && namespace === name)
  ) {
    throw errors.pathNotFound();
  }
  if (subresource && !type.subresources[subresource]) throw errors.pathNotFound();
  if (type.namespaced && namespace === '' && (name !== '' || req.method === 'POST')) {
    throw errors.pathNotFound();
  }
  const context: RequestContext = {
    user,
    now: deps.now(),
    dryRun: query.getAll('dryRun').includes('All'),
    ...(query.get('fieldManager') ? { fieldManager: query.get('fieldManager')! } : {}),
    userAgent: req.headers['user-agent'] ?? '',
    force: queryFlag(query, 'force'),
    strictFields: query.get('fieldValidation') === 'Strict',
  };
  // Strict writes of a built-in kind check its fields against the upstream schema (loaded once).
  if (context.strictFields && !type.schema && ['POST', 'PUT', 'PATCH'].includes(req.method ?? '')) {
    const builtins = await builtinSchemasOf(deps.registry);
    context.unknownBuiltinFields = (object) => builtins.unknownFieldsOf(type, object);
  }
  const { resources } = deps;
  const ns = type.namespaced ? namespace : '';

  switch (req.method) {
    case 'GET':
    case 'HEAD': {
      if (name === '') {
        // info.name is the name the field selector narrowed the list to, as RBAC saw it.
        const scope = { namespace: ns || undefined, authorizedName: info.name || undefined };
        if (info.verb === 'watch') return watch(req, res, type, scope, query, deps);
        return list(req, res, type, scope, query, deps);
      }
      if (queryFlag(query, 'watch')) {
        query.set('fieldSelector', `metadata.name=${escapeFieldValue(name)}`);
        return watch(
          req,
          res,
          type,
          { namespace: ns || undefined, authorizedName: name },
          query,
          deps,
        );
      }
      if (subresource === 'log') {
        return readPodLog(
          req,
          res,
          query,
          { ...deps, logs: deps.logs, type, now: context.now },
          ns,
          name,
        );
      }
      if (subresource === 'scale') return sendJson(res, 200, resources.getScale(type, ns, name));
      return sendObject(req, res, 200, type, resources.get(type, ns, name), query, deps);
    }
    case 'POST': {
      if (subresource === 'log') {
        return appendPodLogRequest(req, res, query, { ...deps, type, now: context.now }, ns, name);
      }
      const body = await jsonBody(req);
      if (subresource === 'binding') {
        return sendJson(res, 201, resources.bind(type, ns, name, body, context));
      }
      if (subresource === 'token') {
        const answer = await tokenRequest(resources, deps.tokens, type, ns, name, body, context);
        return sendJson(res, 201, answer);
      }
      if (name !== '' && subresource === '') throw errors.methodNotAllowed();
      if (!type.stored) return sendJson(res, 201, await review(type, ns, body, user, deps));
      return sendJson(res, 201, resources.create(type, ns, body, context));
    }
    case 'PUT': {
      if (name === '') throw errors.methodNotAllowed();
      const body = await jsonBody(req);
      if (subresource === 'scale') {
        if (!isRecord(body))
          throw errors.badRequest('the body of the request must be a JSON object');
        return sendJson(res, 200, resources.setScale(type, ns, name, body, context));
      }
      const { object, created } = resources.update(
        type,
        ns,
        name,
        body,
        context,
        subresource || undefined,
      );
      return sendJson(res, created ? 201 : 200, object);
    }
    case 'PATCH': {
      if (name === '') throw errors.methodNotAllowed();
      const contentType = mediaType(req);
      const patchType = PATCH_TYPES[contentType];
      if (!patchType) {
        throw errors.unsupportedMediaType(contentType, Object.keys(PATCH_TYPES));
      }
      const patch = parseBody(await readBody(req), contentType);
      if (subresource === 'scale') {
        const current = resources.getScale(type, ns, name);
        const scale = patchType === 'json' ? jsonPatch(current, patch) : mergePatch(current, patch);
        return sendJson(res, 200, resources.setScale(type, ns, name, scale as KubeObject, context));
      }
      const { object, created } = resources.patch(
        type,
        ns,
        name,
        patchType,
        patch,
        context,
        subresource || undefined,
      );
      return sendJson(res, created ? 201 : 200, object);
    }
    case 'DELETE': {
      const options = deleteOptions(await jsonBody(req), query);
      if (name === '') {
        if (!type.verbs.includes('deletecollection')) throw errors.methodNotAllowed();
        const deleted = resources.deleteCollection(
          type,
          ns || undefined,
          listOptions(query),
          options,
          context,
        );
        return sendJson(res, 200, {
          apiVersion: apiVersionOf(type),
          kind: type.listKind,
          metadata: { resourceVersion: String(resources.resourceVersion) },
          items: deleted,
        });
      }
      if (subresource) throw errors.methodNotAllowed();
      const { object, removed } = resources.delete(type, ns, name, options, context);
      if (!removed || type.returnDeletedObject) return sendJson(res, removed ? 200 : 202, object);
      return sendJson(
        res,
        200,
        successStatus({
          name,
          ...(type.group ? { group: type.group } : {}),
          kind: type.plural,
          uid: metaOf(object).uid!,
        }),
      );
    }
    default:
      throw errors.methodNotAllowed();
  }
}

async function jsonBody(req: IncomingMessage): Promise<unknown> {
  const type = mediaType(req);
  if (!BODY_TYPES.includes(type)) {
    throw errors.unsupportedMediaType(type, ['application/json', 'application/yaml']);
  }
  return parseBody(await readBody(req), type);
}

function listOptions(query: URLSearchParams): ListOptions {
  const limit = Number(query.get('limit') ?? 0);
  return {
    ...(query.get('labelSelector') ? { labelSelector: query.get('labelSelector')! } : {}),
    ...(query.get('fieldSelector') ? { fieldSelector: query.get('fieldSelector')! } : {}),
    ...(Number.isInteger(limit) && limit > 0 ? { limit } : {}),
    ...(query.get('continue') ? { continue: query.get('continue')! } : {}),
  };
}

const POLICIES = ['Background', 'Foreground', 'Orphan'];

function deleteOptions(body: unknown, query: URLSearchParams): DeleteOptions {
  const options = isRecord(body) ? body : {};
  let policy = options['propagationPolicy'] ?? query.get('propagationPolicy') ?? undefined;
  if (
    policy === undefined &&
    (options['orphanDependents'] === true || queryFlag(query, 'orphanDependents'))
  ) {
    policy = 'Orphan';
  }
  if (policy !== undefined && (typeof policy !== 'string' || !POLICIES.includes(policy))) {
    throw errors.badRequest(
      `propagationPolicy: Unsupported value: ${JSON.stringify(policy)}: supported values: "Foreground", "Background", "Orphan"`,
    );
  }
  const preconditions = isRecord(options['preconditions']) ? options['preconditions'] : undefined;
  return {
    ...(policy ? { propagationPolicy: policy as PropagationPolicy } : {}),
    ...(preconditions
      ? {
          preconditions: {
            ...(typeof preconditions['uid'] === 'string' ? { uid: preconditions['uid'] } : {}),
            ...(typeof preconditions['resourceVersion'] === 'string'
              ? { resourceVersion: preconditions['resourceVersion'] }
              : {}),
          },
        }
      : {}),
  };
}

function includeObjectOf(query: URLSearchParams): IncludeObject {
  const value = query.get('includeObject');
  return value === 'None' || value === 'Object' ? value : 'Metadata';
}

function sendObject(
  req: IncomingMessage,
  res: ServerResponse,
  code: number,
  type: ResourceType,
  object: KubeObject,
  query: URLSearchParams,
  deps: ServerDeps,
): void {
  const version = tableVersion(req.headers.accept);
  if (!version) return sendJson(res, code, object);
  sendJson(
    res,
    code,
    toTable(type, [object], {
      version,
      includeObject: includeObjectOf(query),
      now: deps.now(),
      resourceVersion: metaOf(object).resourceVersion!,
    }),
  );
}

/** Where a list or watch looks: a namespace (all when undefined), and the one name RBAC allowed. */
interface ListScope {
  namespace: string | undefined;
  authorizedName: string | undefined;
}

function list(
  req: IncomingMessage,
  res: ServerResponse,
  type: ResourceType,
  { namespace, authorizedName }: ListScope,
  query: URLSearchParams,
  deps: ServerDeps,
): void {
  const result = deps.resources.list(type, namespace, {
    ...listOptions(query),
    ...(authorizedName !== undefined ? { authorizedName } : {}),
  });
  const version = tableVersion(req.headers.accept);
  if (version) {
    return sendJson(
      res,
      200,
      toTable(type, result.items, {
        version,
        includeObject: includeObjectOf(query),
        now: deps.now(),
        resourceVersion: result.resourceVersion,
        ...(result.continue ? { continue: result.continue } : {}),
        ...(result.remainingItemCount !== undefined
          ? { remainingItemCount: result.remainingItemCount }
          : {}),
      }),
    );
  }
  sendJson(res, 200, {
    apiVersion: apiVersionOf(type),
    kind: type.listKind,
    metadata: {
      resourceVersion: result.resourceVersion,
      ...(result.continue ? { continue: result.continue } : {}),
      ...(result.remainingItemCount !== undefined
        ? { remainingItemCount: result.remainingItemCount }
        : {}),
    },
    items: result.items,
  });
}

function watch(
  req: IncomingMessage,
  res: ServerResponse,
  type: ResourceType,
  { namespace, authorizedName }: ListScope,
  query: URLSearchParams,
  deps: ServerDeps,
): void {
  const matches = objectMatcher(
    type,
    query.get('labelSelector') ?? undefined,
    query.get('fieldSelector') ?? undefined,
    authorizedName,
  );
  const table = tableVersion(req.headers.accept);
  const includeObject = includeObjectOf(query);
  const timeoutSeconds = Number(query.get('timeoutSeconds') ?? 0);
  const timeoutMs =
    timeoutSeconds > 0 ? timeoutSeconds * 1000 : deps.watchTimeoutMs * (1 + Math.random());
  const resourceVersion = query.get('resourceVersion');
  if (resourceVersion && !/^\d+$/.test(resourceVersion)) {
    throw errors.badRequest(`invalid resource version: ${JSON.stringify(resourceVersion)}`);
  }
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    stop();
    deps.watches.delete(end);
    res.end();
  };
  const send = (event: WatchEvent) => {
    if (ended) return;
    const object =
      table && (event.type === 'ADDED' || event.type === 'MODIFIED' || event.type === 'DELETED')
        ? toTable(type, [event.object], { version: table, includeObject, now: deps.now() })
        : event.object;
    res.write(`${JSON.stringify({ type: event.type, object })}\n`);
    if (res.writableLength > WATCH_BACKLOG_LIMIT) end();
  };
  // Headers go out at once: clients wait for them before they count the watch as started.
  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-cache, private',
    'Transfer-Encoding': 'chunked',
  });
  res.flushHeaders();
  let stop: () => void = () => undefined;
  stop = startWatch(
    deps.store,
    {
      type,
      ...(namespace !== undefined ? { namespace } : {}),
      matches,
      ...(resourceVersion !== null ? { resourceVersion } : {}),
      sendInitialEvents: queryFlag(query, 'sendInitialEvents'),
      allowBookmarks: queryFlag(query, 'allowWatchBookmarks'),
      bookmarkIntervalMs: deps.bookmarkIntervalMs,
      timeoutMs,
    },
    { send, end },
  );
  if (ended) return;
  deps.watches.add(end);
  res.on('close', end);
  req.on('close', end);
}
