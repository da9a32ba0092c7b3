import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { ApiError, errors } from '../api/api-error.js';
import type { RequestAttributes } from '../contracts.js';
import { forbiddenMessage } from '../rbac/authorize.js';
import { requestUser } from './authentication.js';
import {
  apiGroupList,
  apiGroupOf,
  apiResourceList,
  apiVersions,
  SERVER_VERSION,
} from './discovery.js';
import { serveOpenApi } from './openapi.js';
import { requestInfo, type RequestInfo } from './request-info.js';
import { handleResource } from './resource-handler.js';
import { sendJson, sendStatus, sendText } from './responses.js';
import type { ServerDeps } from './server-deps.js';

/** Paths anyone may read, as Kubernetes' system:public-info-viewer role allows. */
const PUBLIC = /^\/(healthz|livez|readyz)(\/.*)?$|^\/version\/?$/;

/**
 * The API server's request handler. Plain node:http rather than fastify: Kubernetes paths are
 * open-ended (any group, version, resource and subresource, decided by the registry at request
 * time) and watches are responses that stream for as long as they last, neither of which a route
 * table helps with; and one handler serves both the HTTP and the HTTPS side of the port.
 */
export function apiHandler(deps: ServerDeps): RequestListener {
  return (req, res) => void handle(req, res, deps);
}

async function handle(req: IncomingMessage, res: ServerResponse, deps: ServerDeps): Promise<void> {
  const started = Date.now();
  const url = new URL(req.url ?? '/', 'http://localhost');
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  try {
    if (PUBLIC.test(path) && req.headers.authorization === undefined) {
      return nonResource(req, res, path, deps);
    }
    const user = await requestUser(req, deps);
    const info = requestInfo(req.method ?? 'GET', path, url.searchParams);
    const attributes = attributesOf(info);
    const decision = deps.authorize(user, attributes);
    if (!decision.allowed) {
      throw errors.forbidden(
        forbiddenMessage(user, attributes, decision),
        info.isResource ? { group: info.group, plural: info.resource } : undefined,
        info.isResource ? info.name : undefined,
      );
    }
    if (!info.isResource) return nonResource(req, res, path, deps);
    await handleResource(req, res, info, url.searchParams, user, deps);
  } catch (err) {
    if (!(err instanceof ApiError))
      deps.logger.error({ err, method: req.method, url: req.url }, 'request failed');
    const status =
      err instanceof ApiError ? err.status : errors.internal(String((err as Error).message)).status;
    if (!res.headersSent) sendStatus(res, status);
    else res.end();
  } finally {
    deps.logger.debug(
      { method: req.method, url: req.url, status: res.statusCode, ms: Date.now() - started },
      'request',
    );
  }
}

function attributesOf(info: RequestInfo): RequestAttributes {
  if (!info.isResource)
    return { verb: info.verb, apiGroup: '', resource: '', nonResourcePath: info.path };
  return {
    verb: info.verb,
    apiGroup: info.group,
    resource: info.resource,
    ...(info.subresource ? { subresource: info.subresource } : {}),
    ...(info.namespace ? { namespace: info.namespace } : {}),
    ...(info.name ? { name: info.name } : {}),
  };
}

/** Discovery, version and health: everything that is not an object. */
function nonResource(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  deps: ServerDeps,
): void | Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') throw errors.methodNotAllowed();
  if (/^\/readyz(\/.*)?$/.test(path) && deps.pendingStart.size > 0) {
    const failed = [...deps.pendingStart].map((hook) => `[-]poststarthook/${hook} failed\n`);
    return sendText(res, 500, `${failed.join('')}readyz check failed`);
  }
  if (/^\/(healthz|livez|readyz)(\/.*)?$/.test(path)) return sendText(res, 200, 'ok');
  if (path === '/version') return sendJson(res, 200, SERVER_VERSION);
  const parts = path.split('/').filter((p) => p !== '');
  if (parts[0] === 'openapi') return serveOpenApi(req, res, parts.slice(1), deps);
  let body: object | undefined;
  if (parts[0] === 'api') {
    if (parts.length === 1) body = apiVersions(req.headers.host ?? '');
    else if (parts.length === 2) body = apiResourceList(deps.registry, '', parts[1]!);
  } else if (parts[0] === 'apis') {
    if (parts.length === 1) body = apiGroupList(deps.registry);
    else if (parts.length === 2) body = apiGroupOf(deps.registry, parts[1]!);
    else if (parts.length === 3) body = apiResourceList(deps.registry, parts[1]!, parts[2]!);
  }
  if (!body) throw errors.pathNotFound();
  sendJson(res, 200, body);
}
