import type { Identity, Logger, ProofVerifier } from '@paddock/common';
import type { SandboxMetrics } from '../metrics.js';
import type { Workspace } from '../workspace/containment.js';
import type { AuditSink } from './audit.js';
import type { EnabledFeatures } from './routes.js';

/** What every route module of the human-facing listener gets. */
export interface ApiContext {
  workspace: Workspace;
  features: EnabledFeatures;
  devMode: boolean;
  /**
   * How each request proves it came through the proxy. Undefined trusts the X-Forwarded-* headers
   * as they come, which the sandbox allows in dev mode only (on loopback).
   */
  proof?: ProofVerifier | undefined;
  /**
   * The ports of the sandbox's own HTTP listeners (MCP, this listener), which a port-forward tunnel
   * must never reach: through them a tunnel would speak to the sandbox itself, past the proxy. The
   * embedded SSH server is not among them: the tunnel is its only way in, and it checks keys.
   */
  selfPorts: Set<number>;
  logger: Logger;
  audit: AuditSink;
  /** Where the open terminals and tunnels, and the tunnels' bytes, are counted. */
  metrics?: SandboxMetrics | undefined;
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
