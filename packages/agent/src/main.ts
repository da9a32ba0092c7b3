// paddock-agent's composition root: configuration, the cluster, the model client, the run store
// and runner, the budget's verdict, the cost report, the API; then serve until a signal.
import {
  ConfigError,
  createLogger,
  formatAddress,
  Health,
  listen,
  loadConfig,
  loggingFromEnv,
  packageInfo,
  proofVerifierFrom,
  Shutdown,
} from '@paddock/common';
import { Scrubber } from '@paddock/common/scrub';
import { Informer, KINDS, Kube, type AgentRuntime } from '@paddock/kube';
import { createAgentApp } from './api/app.js';
import { agentEnv, parseFlags, USAGE } from './config.js';
import { CostReporter } from './cost/cost-reporter.js';
import type { ModelClient } from './model.js';
import { lazyModelClient } from './providers/lazy-client.js';
import { blockedReason } from './runs/budget-block.js';
import { readSettings } from './runs/cluster-settings.js';
import { RunStore } from './runs/run-store.js';
import { Runner } from './runs/runner.js';
import type { RunToolsOptions } from './run-tools.js';
import type { SandboxTools } from './sandbox-tools.js';
import { scrubStrings } from './transcript-scrub.js';

export { USAGE };

const AGENT_RUNTIME = KINDS.find((k) => k.kind === 'AgentRuntime')!;

type Config = ReturnType<typeof loadConfig<typeof agentEnv>>;

/**
 * The client of the configured provider. Only its SDK is loaded, and only with the first model
 * call: each costs megabytes of resident memory in every agent pod, a pod speaks to one provider,
 * and an idle agent calls none.
 */
function modelClient(config: Config): ModelClient {
  const baseURL = config.SVC_AGENT_PROVIDER_BASE_URL?.toString();
  // Servers without keys (a local Ollama or vLLM) still get one: the SDKs refuse to start without.
  const apiKey = config.SVC_AGENT_PROVIDER_API_KEY ?? 'none';
  const options = { apiKey, ...(baseURL === undefined ? {} : { baseURL }) };
  return lazyModelClient(async () =>
    config.SVC_AGENT_PROVIDER === 'anthropic'
      ? (await import('./providers/anthropic-messages.js')).anthropicMessagesClient(options)
      : (await import('./providers/openai-chat.js')).openAIChatClient(options),
  );
}

/**
 * The tools of a run. The MCP client and the tool handlers load with the first run, not at start:
 * an idle agent, as most are, never pays for them.
 */
async function loadRunTools(options: RunToolsOptions): Promise<SandboxTools> {
  return (await import('./run-tools.js')).runTools(options);
}

function required(config: Config): { name: string; namespace: string } {
  const problems: string[] = [];
  const name = config.SVC_AGENT_NAME?.trim() ?? '';
  const namespace = config.SVC_AGENT_NAMESPACE?.trim() ?? '';
  if (name === '') problems.push('SVC_AGENT_NAME is required: the AgentRuntime this agent runs');
  if (namespace === '')
    problems.push('SVC_AGENT_NAMESPACE is required: the AgentRuntime’s namespace');
  if (problems.length > 0) throw new ConfigError(problems);
  return { name, namespace };
}

/** `paddock-agent`: parse the command line and configuration, then serve until a signal. */
export async function main(argv: readonly string[], environment: NodeJS.ProcessEnv): Promise<void> {
  const outcome = parseFlags(argv);
  if ('help' in outcome) return void process.stdout.write(`${USAGE}\n`);
  if ('version' in outcome) {
    return void process.stdout.write(`${packageInfo(import.meta.url).version}\n`);
  }
  const { flags } = outcome;
  const config = loadConfig(agentEnv, environment);
  const self = required(config);
  const found = proofVerifierFrom(config);
  if ('problems' in found) throw new ConfigError(found.problems);
  if (found.verifier === undefined && !flags.dev) {
    throw new ConfigError([
      'the runs API requires the proof of the dashboard in front of it: set SVC_API_PROOF_PUBLIC_KEY and SVC_API_PROOF_AUDIENCE (or SVC_API_PROXY_SECRET_SHA256), or pass --dev to trust every caller',
    ]);
  }
  const logger = createLogger({ name: 'paddock-agent', ...loggingFromEnv(environment) });
  const kube = Kube.connect(
    flags.kubeconfig === undefined
      ? { serviceAccountDir: config.SVC_AGENT_SERVICE_ACCOUNT_DIR }
      : { kubeconfig: flags.kubeconfig },
  );
  const agents = kube.resource<AgentRuntime>(AGENT_RUNTIME);

  // The AgentRuntime, watched by name: the budget's verdict stops a run at its next model call.
  const watched = new Informer<AgentRuntime>(
    agents,
    { namespace: self.namespace, fieldSelector: `metadata.name=${self.name}` },
    (err) => logger.warn({ err }, 'watching the AgentRuntime failed; retrying'),
  ).start();
  const current = () => watched.get(self.name, self.namespace);

  const store = await RunStore.open(config.SVC_AGENT_DATA_DIR);
  const reporter = new CostReporter({
    read: async () => (await agents.get(self.name, self.namespace)).status?.costUsage,
    write: async (costUsage) => {
      await agents.patch(
        self.name,
        { status: { costUsage } },
        { namespace: self.namespace, subresource: 'status' },
      );
    },
    now: () => new Date(),
    onError: (err) => logger.warn({ err }, 'the spend could not be written; it goes with the next'),
  });
  await reporter.start();
  await watched.synced;

  const key = config.SVC_AGENT_PROVIDER_API_KEY;
  const scrubber = new Scrubber({ secrets: key === undefined ? [] : [key] });
  const runner = new Runner({
    store,
    client: modelClient(config),
    settings: () => readSettings(kube, self),
    tools: () =>
      loadRunTools({
        sandboxMcpUrl: config.SVC_AGENT_SANDBOX_MCP_URL!,
        kube,
        namespace: self.namespace,
        logger,
      }),
    blocked: () => blockedReason(current()),
    now: Date.now,
    onSpend: (usd) => reporter.add(usd),
    scrub: (value) => scrubStrings(value, (text) => scrubber.scrub(text)),
    onError: (runId, err) => logger.error({ err, runId }, 'a run could not be recorded'),
  });

  const health = new Health();
  const app = createAgentApp({
    runner,
    store,
    health,
    logger,
    ...(found.verifier === undefined ? {} : { proof: found.verifier }),
  });
  // Steps run last-added first: the API closes, then the runs stop, then the spend is written.
  new Shutdown({ logger, graceMs: config.SVC_SHUTDOWN_GRACE_MS })
    .add('kubernetes client', () => {
      watched.stop();
      kube.close();
    })
    .add('cost report', () => reporter.flushed())
    .add('runs', () => runner.stop())
    .add('http', async () => {
      health.startDraining();
      await app.close();
    })
    .listen();
  const bound = await listen(app, flags.listen);
  logger.info(
    { addr: formatAddress(bound), agent: `${self.namespace}/${self.name}`, dev: flags.dev },
    'agent listening',
  );
}
