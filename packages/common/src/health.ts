import type { FastifyInstance } from 'fastify';

/** A named readiness check: true when the dependency it watches can serve. */
export type ReadinessCheck = () => boolean | Promise<boolean>;

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

  async readiness(): Promise<{ ready: boolean; checks: Record<string, boolean> }> {
    const checks: Record<string, boolean> = {};
    for (const [name, check] of this.checks) {
      try {
        checks[name] = await check();
      } catch {
        checks[name] = false;
      }
    }
    const ready = !this.draining && Object.values(checks).every(Boolean);
    return { ready, checks };
  }

  register(app: FastifyInstance): void {
    app.get('/healthz', (_req, reply) => reply.send({ status: 'ok' }));
    app.get('/readyz', async (_req, reply) => {
      const { ready, checks } = await this.readiness();
      return reply
        .code(ready ? 200 : 503)
        .send({ status: ready ? 'ready' : this.draining ? 'draining' : 'not_ready', checks });
    });
  }
}
