import type { Logger } from '@paddock/common';
import type { Workspace } from '../workspace/containment.js';
import type { AuditSink } from './audit.js';
import type { Identity } from './identity.js';
import type { EnabledFeatures } from './routes.js';

/** What every route module of the human-facing listener gets. */
export interface ApiContext {
  workspace: Workspace;
  features: EnabledFeatures;
  devMode: boolean;
  logger: Logger;
  audit: AuditSink;
  /** Environment for shells (exec, SSH): the sandbox's own secrets removed. */
  childEnv: NodeJS.ProcessEnv;
}

/** Something a feature started that shutdown must stop (an SSH server, open sockets, watchers). */
export interface FeatureHandle {
  close(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the identity hook before any handler runs. */
    identity: Identity;
  }
}
