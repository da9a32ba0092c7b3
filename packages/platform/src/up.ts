import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  DEFAULT_CLUSTER_PORT,
  DEFAULT_DASHBOARD_PORT,
  DEFAULT_SANDBOX_PORT,
  localComponents,
} from './components.js';
import { lockDataDir } from './data-lock.js';
import type { SampleModel } from './sample-model.js';
import { Supervisor, type ComponentSpec } from './supervisor.js';

export interface UpOptions {
  dataDir: string;
  host: string;
  sandboxPort?: number;
  dashboardPort?: number;
  clusterPort?: number;
  /** A cluster's kubeconfig (KUBECONFIG): the platform uses it instead of the embedded cluster. */
  kubeconfig?: string | undefined;
  /** The sample agent's model (PADDOCK_MODEL_*), when the person gave one. */
  sampleModel?: SampleModel | undefined;
  out?: NodeJS.WritableStream;
  /** Replaces the built-in component list (used by tests of the supervisor wiring). */
  components?: ComponentSpec[];
}

/**
 * `paddock up`: every component of the local platform under one supervisor until Ctrl-C. Resolves
 * with the process exit code: 0 after a clean stop, 1 when a component could not be kept running.
 */
export async function up(options: UpOptions): Promise<number> {
  const out = options.out ?? process.stdout;
  const dataDir = resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true });
  const lock = await lockDataDir(dataDir);
  if ('heldBy' in lock) {
    out.write(
      `paddock | another paddock up (pid ${lock.heldBy}) uses ${dataDir}: stop it first, or give --data another folder\n`,
    );
    return 1;
  }
  try {
    return await run(options, out, dataDir);
  } finally {
    await lock.release();
  }
}

async function run(
  options: UpOptions,
  out: NodeJS.WritableStream,
  dataDir: string,
): Promise<number> {
  const specs =
    options.components ??
    (await localComponents({
      dataDir,
      host: options.host,
      sandboxPort: options.sandboxPort ?? DEFAULT_SANDBOX_PORT,
      dashboardPort: options.dashboardPort ?? DEFAULT_DASHBOARD_PORT,
      clusterPort: options.clusterPort ?? DEFAULT_CLUSTER_PORT,
      kubeconfig: options.kubeconfig,
      sampleModel: options.sampleModel,
    }));
  const supervisor = new Supervisor(specs, {
    out,
    color: out === process.stdout && process.stdout.isTTY,
  });

  let stopRequested: (reason: string) => void = () => {};
  const stopSignal = new Promise<string>((res) => (stopRequested = res));
  const onSignal = (signal: NodeJS.Signals) => stopRequested(`received ${signal}`);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // Keeps the supervisor alive until it is told to stop, even with nothing to supervise.
  const keepAlive = setInterval(() => {}, 1 << 30);

  try {
    supervisor.say(`state in ${dataDir}`);
    const started = supervisor.start().then(() => 'started' as const);
    const first = await Promise.race([started, stopSignal, supervisor.failed]);
    if (first === 'started') {
      printBanner(supervisor, specs, supervisor.extraBanner);
      const reason = await Promise.race([
        stopSignal.then((r) => ({ ok: true, reason: r })),
        supervisor.failed.then((r) => ({ ok: false, reason: r })),
      ]);
      supervisor.say(`stopping: ${reason.reason}`);
      await supervisor.stop();
      supervisor.say('stopped');
      return reason.ok ? 0 : 1;
    }
    supervisor.say(`stopping: ${first}`);
    await supervisor.stop();
    return 1;
  } catch (err) {
    supervisor.say(`failed to start: ${err instanceof Error ? err.message : String(err)}`);
    await supervisor.stop();
    return 1;
  } finally {
    clearInterval(keepAlive);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

function printBanner(
  supervisor: Supervisor,
  specs: readonly ComponentSpec[],
  extra: ReadonlyMap<string, string[]>,
): void {
  if (specs.length === 0) {
    supervisor.say('no components are part of the local platform yet');
  }
  for (const spec of specs) {
    for (const line of [...(spec.banner ?? []), ...(extra.get(spec.name) ?? [])]) {
      supervisor.say(`  ${spec.name}: ${line}`);
    }
  }
  supervisor.say('Paddock is running. Press Ctrl-C to stop.');
}
