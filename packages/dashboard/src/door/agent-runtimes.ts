import { NotFoundError, type AgentRuntime, type Kube } from '@paddock/kube';
import { ExpiringCache } from '../expiring-cache.js';
import { AGENT_KIND } from '../http/workspace-routes.js';
import { POD_CACHE_MS } from './agent-pods.js';

const MAX_CACHED = 5_000;

/**
 * The AgentRuntimes the door's runs routes read (whether the agent names a provider), each read
 * kept as long as a pod's: a transcript followed and a list polled cost one read, not one each.
 */
export class AgentRuntimes {
  private readonly agents = new ExpiringCache<string, AgentRuntime | null>(
    MAX_CACHED,
    POD_CACHE_MS,
  );

  constructor(private readonly now: () => number = Date.now) {}

  /** The AgentRuntime, or undefined when there is none of that name. */
  async get(kube: Kube, namespace: string, name: string): Promise<AgentRuntime | undefined> {
    const key = `${namespace}/${name}`;
    const now = this.now();
    const cached = this.agents.get(key, now);
    if (cached !== undefined) return cached ?? undefined;
    let agent: AgentRuntime | null;
    try {
      agent = await kube.resource<AgentRuntime>(AGENT_KIND).get(name, namespace);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      agent = null;
    }
    this.agents.set(key, agent, now);
    return agent ?? undefined;
  }
}
