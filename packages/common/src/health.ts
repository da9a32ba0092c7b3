import type { FastifyInstance } from 'fastify';

/** A check's verdict: ready or not, and, when not, why (shown by `/readyz`). */
export type CheckResult = boolean | { ready: boolean; reason?: string | undefined };

/** A named readiness check: ready when the dependency it watches can serve. */
export type ReadinessCheck = () => CheckResult | Promise<CheckResult>;

/**
 * Liveness and readiness. `/healthz` answers while the process can answer at all; `/readyz` runs the
 * checks and answers 503 once any fails or shutdown has begun, so traffic drains before the exit.
 */
export class Health {
  private draining = false;
  private readonly checks = new Map<string, ReadinessCheck>();

  addCheck(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
  }

  startDraining(): void {
    this.draining = true;
  }

  async readiness(): Promise<{
    ready: boolean;
    checks: Record<string, boolean>;
    reasons: Record<string, string>;
  }> {
    const checks: Record<string, boolean> = {};
    const reasons: Record<string, string> = {};
    for (const [name, check] of this.checks) {
      try {
        const result = await check();
        checks[name] = typeof result === 'boolean' ? result : result.ready;
        if (typeof result !== 'boolean' && !result.ready && result.reason !== undefined)
          reasons[name] = result.reason;
      } catch {
        // A thrown error's text may name internals: only a check's own reason is shown.
        checks[name] = false;
      }
    }
    const ready = !this.draining && Object.values(checks).every(Boolean);
    return { ready, checks, reasons };
  }

  /** The answer of `path` (`/healthz` or `/readyz`), or undefined for any other path. */
  async answer(path: string): Promise<{ status: number; body: object } | undefined> {
    if (path === HEALTH_PATHS.live) return { status: 200, body: { status: 'ok' } };
    if (path !== HEALTH_PATHS.ready) return undefined;
    const { ready, checks, reasons } = await this.readiness();
    const status = ready ? 'ready' : this.draining ? 'draining' : 'not_ready';
    return {
      status: ready ? 200 : 503,
      body: { status, checks, ...(Object.keys(reasons).length > 0 ? { reasons } : {}) },
    };
  }

  register(app: FastifyInstance): void {
    for (const path of Object.values(HEALTH_PATHS)) {
      app.get(path, async (_req, reply) => {
        const { status, body } = (await this.answer(path))!;
        return reply.code(status).send(body);
      });
    }
  }
}

/** Where liveness and readiness answer. */
export const HEALTH_PATHS = { live: '/healthz', ready: '/readyz' } as const;
