import type { Logger } from '@paddock/common';
import type { ApiKeys } from '../auth/apikeys/service.js';
import type { Authenticator } from '../auth/authenticator.js';
import type { ExternalUsers } from '../auth/external-users.js';
import type { Principal } from '../auth/identity.js';
import type { RoleMapping } from '../auth/roles.js';
import type { SessionRevocations } from '../auth/session-revocation.js';
import type { SessionData } from '../auth/session.js';
import type { Accounts } from '../builtin/accounts.js';
import type { DashboardConfig } from '../config.js';
import type { OAuthLogin } from '../oauth/login.js';
import type { Store } from '../store/types.js';
import type { Workspaces } from '../workspaces/service.js';
import type { SessionCookies } from './session-cookies.js';

/** Everything the dashboard's routes work with, made once at start. */
export interface DashboardContext {
  config: DashboardConfig;
  logger: Logger;
  store: Store;
  mapping: RoleMapping;
  sessions: SessionCookies;
  /** Sessions ended by logout, checked on every request that carries one. */
  sessionRevocations: SessionRevocations;
  authenticator: Authenticator;
  apiKeys: ApiKeys;
  externalUsers: ExternalUsers;
  /** builtin mode only. */
  accounts?: Accounts;
  /** oauth mode only. */
  oauth?: OAuthLogin;
  /** When a cluster is configured: the workspaces and the cluster as each workspace role. */
  workspaces?: Workspaces;
  /** The dashboard's externally visible origin. */
  publicOrigin: string;
  now: () => number;
}

/**
 * How a route is reached: by anyone, only by an authenticated caller, or (`page`, the web
 * interface's catch-all) by anyone outside /api/ and like an unknown API route inside it.
 */
export type RouteAccess = 'public' | 'authenticated' | 'page';

/** The route a request took, read once when it arrives (fastify builds routeOptions per read). */
export interface RouteTaken {
  /** Its pattern (`/api/workspaces/:name`), or undefined when no route took the request. */
  pattern: string | undefined;
  access: RouteAccess | undefined;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Routes are authenticated unless they say `public`. */
    access?: RouteAccess;
  }
  interface FastifyRequest {
    /** Set by the authentication hook on authenticated routes. */
    principal: Principal;
    /** The session the request carried, if any (also on public routes of oauth and builtin). */
    session: SessionData | undefined;
    /** Set by the first hook; null only for a request refused before any hook ran. */
    routeTaken: RouteTaken | null;
  }
}
