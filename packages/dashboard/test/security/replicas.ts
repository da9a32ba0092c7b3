import { join } from 'node:path';
import { ADMIN_PASSWORD, Client, startDashboard, type RunningDashboard } from '@paddock/testing';

/** Two dashboard processes on one SQLite store, as two replicas behind a load balancer. */
export interface Replicas {
  a: RunningDashboard;
  b: RunningDashboard;
  stop: () => Promise<void>;
}

export async function startReplicas(env: Record<string, string> = {}): Promise<Replicas> {
  const a = await startDashboard({ SVC_AUTH_MODE: 'builtin', ...env });
  // The second replica opens the first one's database once its migrations have run.
  const b = await startDashboard({
    SVC_AUTH_MODE: 'builtin',
    ...env,
    SVC_BUILTIN_SQLITE_PATH: join(a.dataDir, 'users.db'),
  });
  return { a, b, stop: async () => void (await Promise.all([b.stop(), a.stop()])) };
}

/** A client signed in as the initial admin on `base`. */
export async function signedInAdmin(base: string): Promise<Client> {
  const client = new Client(base);
  const answer = await client.post('/api/auth/builtin/login', {
    username: 'admin',
    password: ADMIN_PASSWORD,
  });
  if (answer.status !== 200) throw new Error(`admin sign-in failed: ${answer.status}`);
  return client;
}

/** A client of `base` that sends the cookies another client holds: a copied cookie. */
export function replayOf(client: Client, base: string): Client {
  const copy = new Client(base);
  for (const [name, value] of client.jar) copy.jar.set(name, value);
  return copy;
}

/** One request of a hammering loop: when it was sent and answered, and its status. */
export interface Shot {
  sentAt: number;
  answeredAt: number;
  status: number;
}

/**
 * Sends `send` from `concurrency` loops until `stop()` says so, `maxRequests` were sent or
 * `maxMs` passed, whichever comes first: a bounded flood.
 */
export async function hammer(
  send: () => Promise<number>,
  options: {
    concurrency: number;
    maxRequests: number;
    maxMs: number;
    stop: (shots: readonly Shot[]) => boolean;
  },
): Promise<Shot[]> {
  const shots: Shot[] = [];
  const deadline = Date.now() + options.maxMs;
  let sent = 0;
  const loop = async () => {
    while (sent < options.maxRequests && Date.now() < deadline && !options.stop(shots)) {
      sent++;
      const sentAt = Date.now();
      const status = await send();
      shots.push({ sentAt, answeredAt: Date.now(), status });
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, loop));
  return shots;
}
