/**
 * The human-facing listener's route table: the one list the listener mounts from, gates by flag,
 * answers 405 from, and that the OpenAPI description is checked against.
 */
export type Feature = 'api' | 'exec' | 'port-forward' | 'ssh' | 'always';

export interface RouteSpec {
  method: 'GET' | 'POST' | 'DELETE';
  /** fastify syntax: `:name` for a path parameter, a trailing `*` for the rest of the path. */
  path: string;
  feature: Feature;
  /** A WebSocket upgrade route. */
  websocket?: boolean;
}

export const API_ROUTES: readonly RouteSpec[] = [
  { method: 'GET', path: '/api/tree', feature: 'api' },
  { method: 'GET', path: '/api/file', feature: 'api' },
  { method: 'GET', path: '/api/events', feature: 'api' },
  { method: 'GET', path: '/api/download', feature: 'api' },
  { method: 'GET', path: '/api/exec', feature: 'exec', websocket: true },
  { method: 'GET', path: '/api/port-forward', feature: 'port-forward', websocket: true },
  { method: 'POST', path: '/api/ssh-authorized-keys', feature: 'ssh' },
  { method: 'GET', path: '/api/ssh-authorized-keys', feature: 'ssh' },
  { method: 'DELETE', path: '/api/ssh-authorized-keys/:id', feature: 'ssh' },
  { method: 'GET', path: '/api/ssh-port', feature: 'ssh' },
  { method: 'GET', path: '/api/openapi.yaml', feature: 'always' },
  { method: 'GET', path: '/api/docs', feature: 'always' },
  { method: 'GET', path: '/api/docs/assets/*', feature: 'always' },
];

export interface EnabledFeatures {
  api: boolean;
  exec: boolean;
  portForward: boolean;
  ssh: boolean;
}

export function isEnabled(feature: Feature, enabled: EnabledFeatures): boolean {
  switch (feature) {
    case 'always':
      return true;
    case 'api':
      return enabled.api;
    case 'exec':
      return enabled.exec;
    case 'port-forward':
      return enabled.portForward;
    case 'ssh':
      return enabled.ssh;
  }
}

/** Whether a concrete path matches a route path of the table. */
export function pathMatches(routePath: string, path: string): boolean {
  if (routePath.endsWith('*')) return path.startsWith(routePath.slice(0, -1));
  const want = routePath.split('/');
  const got = path.split('/');
  return (
    want.length === got.length &&
    want.every((part, i) => (part.startsWith(':') ? got[i] !== '' : part === got[i]))
  );
}

/**
 * For a request no route answered: the methods the path does take when its feature is on (a 405
 * with Allow), or none (a 404, also for every route of a disabled feature).
 */
export function allowedMethods(path: string, enabled: EnabledFeatures): string[] {
  return API_ROUTES.filter((r) => isEnabled(r.feature, enabled) && pathMatches(r.path, path)).map(
    (r) => r.method,
  );
}
