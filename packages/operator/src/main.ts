import { hostname } from 'node:os';
import {
  createHttpApp,
  createLogger,
  env,
  formatAddress,
  Health,
  listen,
  loadConfig,
  loggingEnv,
  loggingFromEnv,
  mailEnv,
  mailerFrom,
  packageInfo,
  onlyOption,
  Shutdown,
} from '@paddock/common';
import { Kube } from '@paddock/kube';
import { AgentRuntimeController } from './controllers/agent-runtime-controller.js';
import { ToolRegistryController } from './controllers/tool-registry-controller.js';
import { WorkspaceController } from './controllers/workspace-controller.js';
import { OPERATOR_NAME } from './operator-rbac.js';
import { operatorEventRecorder } from './runtime/events.js';
import { LeaderElector } from './runtime/leader-election.js';
import { OperatorMetrics, serveMetrics } from './runtime/metrics.js';

export const USAGE = `Usage: paddock-operator [--kubeconfig FILE] [--help] [--version]

Runs Paddock's three controllers, for Workspaces, ToolRegistries and AgentRuntimes, against the
cluster of --kubeconfig, else of KUBECONFIG, else the in-cluster configuration of its pod.
Configured through SVC_OPERATOR_* variables (docs/operator.md); serves /healthz, /readyz and
/metrics on SVC_OPERATOR_LISTEN_ADDR.`;

/** The operator's variables, each with its default. */
export const operatorEnv = {
  /** /healthz, /readyz and /metrics. */
  SVC_OPERATOR_LISTEN_ADDR: env.address('127.0.0.1:8081'),
  /** Reconciles run at once, per controller. */
  SVC_OPERATOR_WORKERS: env.integer(4, { min: 1, max: 64 }),
  /**
   * Where the leader-election Lease and the identity-proof key pair live, and the namespace the
   * platform runs in.
   */
  SVC_OPERATOR_NAMESPACE: env.string('paddock-system'),
  SVC_OPERATOR_LEADER_ELECTION: env.boolean(true),
  /** Seconds between two discoveries of a ToolRegistry that did not change. */
  SVC_OPERATOR_TOOL_REDISCOVERY_SECONDS: env.integer(300, { min: 5 }),
  /**
   * Run the commands of stdio MCP handlers inside the operator. Whoever may edit a ToolRegistry
   * could run code there: off unless every such editor is trusted (a single-user machine).
   */
  SVC_OPERATOR_ALLOW_STDIO: env.boolean(false),
  /** Let handlers reference Services of other namespaces. */
  SVC_OPERATOR_ALLOW_CROSS_NAMESPACE: env.boolean(false),
  /** Budget alerts are mailed through the same relay as the dashboard's mails. */
  ...mailEnv,
  ...loggingEnv,
};

/** `paddock-operator`: run the controllers while this replica leads, until a signal. */
export async function main(argv: readonly string[], environment: NodeJS.ProcessEnv): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h'))
    return void process.stdout.write(`${USAGE}\n`);
  if (argv.includes('--version')) {
    return void process.stdout.write(`${packageInfo(import.meta.url).version}\n`);
  }
  const kubeconfig = onlyOption(argv, '--kubeconfig', 'a file');
  const config = loadConfig(operatorEnv, environment);
  const logger = createLogger({ name: 'paddock-operator', ...loggingFromEnv(environment) });
  const kube = Kube.connect(kubeconfig === undefined ? {} : { kubeconfig });

  const metrics = new OperatorMetrics();
  const recorder = operatorEventRecorder(kube, logger);
  const mailer = mailerFrom(config, logger);
  const workspaces = new WorkspaceController({
    kube,
    recorder,
    metrics,
    logger,
    mailer,
    platformNamespace: config.SVC_OPERATOR_NAMESPACE,
    workers: config.SVC_OPERATOR_WORKERS,
  });
  const registries = new ToolRegistryController({
    kube,
    recorder,
    metrics,
    logger,
    allowStdio: config.SVC_OPERATOR_ALLOW_STDIO,
    allowCrossNamespace: config.SVC_OPERATOR_ALLOW_CROSS_NAMESPACE,
    rediscoverMs: config.SVC_OPERATOR_TOOL_REDISCOVERY_SECONDS * 1000,
    workers: config.SVC_OPERATOR_WORKERS,
  });
  const agents = new AgentRuntimeController({
    kube,
    recorder,
    metrics,
    logger,
    platformNamespace: config.SVC_OPERATOR_NAMESPACE,
    workers: config.SVC_OPERATOR_WORKERS,
  });

  // Controllers run only while this replica leads; a standby stays ready to take over.
  let running = false;
  const startControllers = async () => {
    if (running) return;
    running = true;
    metrics.setLeader(true);
    await Promise.all([workspaces.start(), registries.start(), agents.start()]);
    logger.info('leading: controllers started');
  };
  const stopControllers = async () => {
    if (!running) return;
    running = false;
    metrics.setLeader(false);
    await Promise.all([workspaces.stop(), registries.stop(), agents.stop()]);
  };

  const app = createHttpApp({ logger });
  const health = new Health();
  health.register(app);
  app.get('/metrics', serveMetrics(metrics));
  // Steps run last-added first: the client's connections end after everything that uses them.
  const shutdown = new Shutdown({ logger })
    .add('kubernetes client', () => kube.close())
    .add('controllers', stopControllers)
    .add('mailer', () => mailer.close());

  if (config.SVC_OPERATOR_LEADER_ELECTION) {
    const elector = new LeaderElector({
      kube,
      namespace: config.SVC_OPERATOR_NAMESPACE,
      name: OPERATOR_NAME,
      identity: `${hostname()}_${process.pid}`,
      namespaceSetting: 'SVC_OPERATOR_NAMESPACE',
      logger,
      // A leader that cannot run its controllers exits (and is restarted where it runs) rather
      // than holding the lease idle.
      onStartedLeading: () =>
        void startControllers().catch((err: unknown) => {
          logger.error({ err }, 'controllers failed to start');
          void shutdown.run('controllers failed to start', { failed: true });
        }),
      // A leader that lost its lease (renewal failed past the deadline, under load, say) stops
      // and exits 1, to be restarted where it runs as a candidate again: the controllers' caches
      // and queues are made once per process, and events missed meanwhile would be lost.
      onLostLeadership: () => {
        logger.warn('lost leadership: stopping, to start again as a candidate');
        void shutdown.run('lost leadership', { failed: true });
      },
    });
    // The controllers stop before the lease is released, so two leaders never overlap.
    shutdown.add('leader election', async () => {
      await stopControllers();
      await elector.stop();
    });
    health.addCheck('leader-election', () => elector.readiness());
    elector.start();
  } else {
    await startControllers();
  }
  shutdown
    .add('http', async () => {
      health.startDraining();
      await app.close();
    })
    .listen();
  const bound = await listen(app, config.SVC_OPERATOR_LISTEN_ADDR);
  logger.info(
    {
      addr: formatAddress(bound),
      leaderElection: config.SVC_OPERATOR_LEADER_ELECTION,
      allowStdio: config.SVC_OPERATOR_ALLOW_STDIO,
    },
    'operator listening',
  );
}
