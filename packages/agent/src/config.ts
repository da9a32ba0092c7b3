// paddock-agent's command line and SVC_AGENT_* variables (docs/agent.md). In an agent's pod the
// AgentRuntime controller sets them all; run by hand, a kubeconfig stands in for the pod's
// ServiceAccount.
import { parseArgs } from 'node:util';
import { AGENT_PROVIDER_TYPES } from '@paddock/kube';
import {
  DEFAULT_GRACE_MS,
  env,
  loggingEnv,
  parseAddress,
  UsageError,
  type Address,
} from '@paddock/common';

export const USAGE = `Usage: paddock-agent [--listen ADDR] [--kubeconfig FILE] [--dev] [--help] [--version]

Runs the agent loop of one replica of an AgentRuntime (SVC_AGENT_NAME in SVC_AGENT_NAMESPACE):
takes runs over its API on --listen (default 127.0.0.1:7072), thinks with the model of the
AgentRuntime through SVC_AGENT_PROVIDER, works through the sandbox's MCP server at
SVC_AGENT_SANDBOX_MCP_URL and the workspace's ToolRegistries, keeps transcripts in
SVC_AGENT_DATA_DIR and reports spend into the AgentRuntime's status. The cluster is that of
--kubeconfig, else KUBECONFIG, else the pod's ServiceAccount (SVC_AGENT_SERVICE_ACCOUNT_DIR).
Every API request must carry the dashboard's X-Paddock-Proof (SVC_API_PROOF_PUBLIC_KEY and
SVC_API_PROOF_AUDIENCE), except with --dev, which trusts every caller. See docs/agent.md.`;

export const DEFAULT_LISTEN = '127.0.0.1:7072';

export interface AgentFlags {
  listen: Address;
  kubeconfig: string | undefined;
  dev: boolean;
}

export function parseFlags(
  argv: readonly string[],
): { help: true } | { version: true } | { flags: AgentFlags } {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        listen: { type: 'string' },
        kubeconfig: { type: 'string' },
        dev: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.help === true) return { help: true };
  if (parsed.version === true) return { version: true };
  const listen = parseAddress(parsed.listen ?? DEFAULT_LISTEN);
  if ('error' in listen) throw new UsageError(`--listen: ${listen.error}`);
  return {
    flags: {
      listen,
      kubeconfig: parsed.kubeconfig,
      dev: parsed.dev === true,
    },
  };
}

export const agentEnv = {
  ...loggingEnv,
  /** The AgentRuntime this replica belongs to, and its namespace. */
  SVC_AGENT_NAME: env.string(),
  SVC_AGENT_NAMESPACE: env.string(),
  /** The wire protocol of the model: openai (Chat Completions) or anthropic (Messages). */
  SVC_AGENT_PROVIDER: env.oneOf(AGENT_PROVIDER_TYPES, 'openai'),
  /** The provider's API root; the provider's own service when unset. */
  SVC_AGENT_PROVIDER_BASE_URL: env.url(),
  /** The provider's API key (from the AgentRuntime's apiKeySecretRef). */
  SVC_AGENT_PROVIDER_API_KEY: env.string(),
  /** The sandbox of the same pod: its MCP endpoint. */
  SVC_AGENT_SANDBOX_MCP_URL: env.url('http://127.0.0.1:7070/mcp'),
  /** Where the runs' transcripts are kept: a volume of the agent's own, out of the sandbox's reach. */
  SVC_AGENT_DATA_DIR: env.string('/var/lib/paddock-agent'),
  /** The pod's ServiceAccount token, CA and namespace, when no kubeconfig is given. */
  SVC_AGENT_SERVICE_ACCOUNT_DIR: env.string('/var/run/secrets/kubernetes.io/serviceaccount'),
  /** The proof of the dashboard in front of the API, as the sandbox's human API checks it. */
  SVC_API_PROOF_PUBLIC_KEY: env.string(),
  SVC_API_PROOF_AUDIENCE: env.string(),
  SVC_API_PROXY_SECRET_SHA256: env.string(),
  /** The one grace budget of a shutdown, in milliseconds. */
  SVC_SHUTDOWN_GRACE_MS: env.integer(DEFAULT_GRACE_MS, { min: 100, max: 600_000 }),
};
