import type { Logger } from '@paddock/common';
import {
  AlreadyExistsError,
  Informer,
  LABEL_AGENT,
  identityOnly,
  type AgentRuntime,
  type AgentRuntimeStatus,
  type Kube,
  type KubeObject,
  type PromptPack,
  type Workspace,
  WorkQueue,
  type ProcessResult,
} from '@paddock/kube';
import {
  AGENT_APP_NAME,
  agentNameProblem,
  agentStatus,
  agentWorkspace,
  desiredAgentAccess,
  desiredAgentNetworkPolicy,
  desiredService,
  desiredStatefulSet,
  effectiveReplicas,
  noWorkspaceStatus,
  type AgentNetworkPolicyObject,
  proofKeyFingerprint,
  runsAgentLoop,
  withoutOldPause,
  workspaceForAgents,
  type ComputedAgentStatus,
  type ObservedStatefulSet,
  type StatefulSetObject,
  type WorkspaceForAgents,
} from '../agentruntime/index.js';
import { LABEL_APP_NAME } from '../agentruntime/agent-labels.js';
import type { EventRecorder } from '../runtime/events.js';
import type { OperatorMetrics } from '../runtime/metrics.js';
import { writeStatusIfChanged } from '../runtime/status.js';
import { StringPool } from '../runtime/string-pool.js';
import { agentClients, type AgentClients } from './agent-runtime/clients.js';
import {
  leanAgent,
  leanAgentObject,
  leanPod,
  type LeanAgent,
  type LeanAgentObject,
  type LeanPod,
} from './agent-runtime/lean-objects.js';
import {
  controlledBy,
  fixedFieldsDiffering,
  withClaimsOf,
  networkPolicyUpdate,
  serviceUpdate,
  statefulSetUpdate,
  type StoredObject,
} from './agent-runtime/owned-objects.js';
import { ProofSecrets } from './agent-runtime/proof-secrets.js';
import { statusEvents } from './agent-runtime/status-events.js';
import { workspaceOfNamespace } from './agent-runtime/workspace-of-namespace.js';
import { deleteIfExists, ensureObject, getIfExists } from './workspace/ensure-object.js';

export const AGENT_RUNTIME_CONTROLLER = 'agentruntime';

const DEFAULT_WORKERS = 4;
/**
 * Every agent is looked at again this often even when nothing it watches changed: the proof
 * Secrets are read by name, not watched, so a deleted or edited copy is restored within this time.
 */
export const AGENT_RESYNC_MS = 5 * 60_000;
/** An object of the agent's name still being deleted (an earlier agent's) usually goes within seconds. */
const TERMINATING_RECHECK_MS = 2_000;

/** The pods, StatefulSets and NetworkPolicies of agents, and only those, are watched. */
const AGENT_OBJECTS = `${LABEL_APP_NAME}=${AGENT_APP_NAME}`;

export interface AgentRuntimeControllerDeps {
  kube: Kube;
  recorder: EventRecorder;
  metrics: OperatorMetrics;
  logger: Logger;
  /**
   * Where the identity-proof key pair is kept and the dashboard runs (SVC_OPERATOR_NAMESPACE):
   * the agents' NetworkPolicies let its dashboard in.
   */
  platformNamespace: string;
  workers?: number;
  now?: () => number;
  resyncMs?: number;
}

const keyOf = (namespace: string, name: string) => `${namespace}/${name}`;

/**
 * Runs each AgentRuntime as a StatefulSet and a headless Service (docs/decisions/0018), behind a
 * NetworkPolicy of its own (docs/decisions/0023): computes them from the agent, its Workspace and
 * its PromptPack, writes them only when they differ, keeps
 * the identity-proof Secrets its pods read, and reports the agent's status from the StatefulSet and
 * its pods. Deleting an agent needs nothing: its objects carry it as owner.
 */
export class AgentRuntimeController {
  private readonly clients: AgentClients;
  private readonly queue: WorkQueue;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly resyncMs: number;
  private readonly proofs: ProofSecrets;
  // What each informer keeps is a projection (lean-objects.ts, workspace-for-agents.ts): a pass
  // reads from the cluster whatever it writes.
  private readonly agents: Informer<AgentRuntime, LeanAgent>;
  private readonly workspaces: Informer<Workspace, WorkspaceForAgents>;
  private readonly promptPacks: Informer<PromptPack, ReturnType<typeof identityOnly>>;
  private readonly statefulSets: Informer<StoredObject, LeanAgentObject>;
  private readonly networkPolicies: Informer<StoredObject, LeanAgentObject>;
  private readonly pods: Informer<KubeObject, LeanPod>;

  constructor(private readonly deps: AgentRuntimeControllerDeps) {
    this.clients = agentClients(deps.kube);
    this.logger = deps.logger.child({ controller: AGENT_RUNTIME_CONTROLLER });
    this.now = deps.now ?? Date.now;
    this.resyncMs = deps.resyncMs ?? AGENT_RESYNC_MS;
    this.proofs = new ProofSecrets(this.clients.secrets, deps.platformNamespace, () =>
      this.enqueueAll(),
    );
    this.queue = new WorkQueue((key) => this.reconcile(key), {
      workers: deps.workers ?? DEFAULT_WORKERS,
      onProcessed: (key, outcome, seconds, error) => {
        deps.metrics.observeReconcile(AGENT_RUNTIME_CONTROLLER, outcome, seconds);
        if (error !== undefined)
          this.logger.warn({ err: error, key }, 'reconcile failed; retrying');
      },
    });
    deps.metrics.trackQueue(AGENT_RUNTIME_CONTROLLER, this.queue);

    const onError = (kind: string) => (err: unknown) =>
      this.logger.warn({ err, kind }, 'watch failed; retrying');
    const selected = { labelSelector: AGENT_OBJECTS };
    const strings = new StringPool();
    this.agents = new Informer(this.clients.agentRuntimes, {}, onError('AgentRuntime'), leanAgent);
    this.workspaces = new Informer(this.clients.workspaces, {}, onError('Workspace'), (workspace) =>
      workspaceForAgents(workspace, (value) => strings.intern(value)),
    );
    this.promptPacks = new Informer(
      this.clients.promptPacks,
      {},
      onError('PromptPack'),
      identityOnly,
    );
    this.statefulSets = new Informer(
      this.clients.statefulSets,
      selected,
      onError('StatefulSet'),
      leanAgentObject,
    );
    // Watched so that an edited or deleted policy is restored at once, not at the next resync.
    this.networkPolicies = new Informer(
      this.clients.networkPolicies,
      selected,
      onError('NetworkPolicy'),
      leanAgentObject,
    );
    this.pods = new Informer(this.clients.pods, selected, onError('Pod'), leanPod);
  }

  /** Resolves once every cache is filled and the workers run. */
  async start(): Promise<void> {
    this.agents.on((event, agent, old) => {
      // Our own status writes change neither the generation nor the annotations.
      if (
        event === 'update' &&
        old?.metadata.generation === agent.metadata.generation &&
        JSON.stringify(old?.metadata.annotations) === JSON.stringify(agent.metadata.annotations)
      ) {
        return;
      }
      if (event !== 'delete') this.queue.add(keyOf(agent.metadata.namespace, agent.metadata.name));
    });
    this.workspaces.on((_event, workspace, old) => {
      this.enqueueNamespace(workspace.spec.namespace.name);
      const before = old?.spec.namespace.name;
      if (before !== undefined && before !== workspace.spec.namespace.name) {
        this.enqueueNamespace(before);
      }
    });
    this.promptPacks.on((_event, pack) => {
      const { name, namespace } = pack.metadata;
      for (const agent of this.agents.values()) {
        if (agent.metadata.namespace === namespace && agent.spec.promptPackRef?.name === name) {
          this.queue.add(keyOf(agent.metadata.namespace, agent.metadata.name));
        }
      }
    });
    const toAgent = (_event: string, object: KubeObject) => {
      const agent = object.metadata?.labels?.[LABEL_AGENT];
      const namespace = object.metadata?.namespace;
      if (agent !== undefined && namespace !== undefined) this.queue.add(keyOf(namespace, agent));
    };
    this.statefulSets.on(toAgent);
    this.networkPolicies.on(toAgent);
    this.pods.on(toAgent);
    const informers = [
      this.workspaces,
      this.promptPacks,
      this.statefulSets,
      this.networkPolicies,
      this.pods,
    ];
    for (const informer of informers) informer.start();
    await Promise.all(informers.map((informer) => informer.synced));
    // Agents last: their first passes find the rest in the caches.
    this.agents.start();
    await this.agents.synced;
    this.queue.start();
    this.logger.info('agent runtime controller started');
  }

  /** Stops watching and waits for the reconciles in progress. */
  async stop(): Promise<void> {
    for (const informer of [
      this.agents,
      this.workspaces,
      this.promptPacks,
      this.statefulSets,
      this.networkPolicies,
      this.pods,
    ]) {
      informer.stop();
    }
    await this.queue.shutdown();
  }

  private enqueueNamespace(namespace: string): void {
    for (const agent of this.agents.values()) {
      if (agent.metadata.namespace === namespace) {
        this.queue.add(keyOf(namespace, agent.metadata.name));
      }
    }
  }

  private enqueueAll(): void {
    for (const agent of this.agents.values()) {
      this.queue.add(keyOf(agent.metadata.namespace, agent.metadata.name));
    }
  }

  /** One pass over the agent `namespace/name`; public so that a pass can be run and observed. */
  async reconcile(key: string): Promise<ProcessResult> {
    const slash = key.indexOf('/');
    const namespace = key.slice(0, slash);
    const name = key.slice(slash + 1);
    let agent = await getIfExists(this.clients.agentRuntimes, name, namespace);
    // A deleted agent's StatefulSet, Service and NetworkPolicy go with it (owner references).
    if (agent === undefined || agent.metadata.deletionTimestamp !== undefined) return {};
    const migrated = withoutOldPause(agent);
    if (migrated !== undefined) {
      agent = await this.clients.agentRuntimes.replace(migrated);
      this.logger.info(
        { agent: key, replicas: agent.spec.replicas },
        'removed the pause an earlier version wrote into spec.replicas',
      );
    }
    const now = new Date(this.now());
    const resync = { resyncAfterMs: this.resyncMs };

    const workspace = workspaceOfNamespace(this.workspaces.values(), namespace);
    if (workspace === undefined) {
      await this.writeStatus(agent, noWorkspaceStatus(agent, now));
      return resync;
    }
    const placement = agentWorkspace(workspace);
    const effective = effectiveReplicas(agent, placement);
    if (agentNameProblem(name) !== undefined) {
      await this.writeStatus(
        agent,
        agentStatus({ agent, statefulSet: undefined, pods: [], effective, now }),
      );
      return resync;
    }

    const publicKey = await this.proofs.publicKey();
    await this.proofs.ensureCopy(namespace, publicKey);
    const packName = agent.spec.promptPackRef.name;
    const pack = this.promptPacks.get(packName, namespace)?.metadata?.resourceVersion;
    const desired = desiredStatefulSet({
      agent,
      workspace: placement,
      promptPack: pack === undefined ? undefined : { name: packName, version: pack },
      proofKey: proofKeyFingerprint(publicKey),
    });
    // The policy before the pods: none of them runs a moment without it.
    const policy = await this.applyNetworkPolicy(
      agent,
      desiredAgentNetworkPolicy({
        agent,
        workspace,
        platformNamespace: this.deps.platformNamespace,
      }),
    );
    const service = await this.applyService(agent, placement.name);
    // The agent loop's identity before its pods, which name it.
    await this.applyAgentAccess(agent, placement.name);
    const statefulSet = await this.applyStatefulSet(agent, desired);
    const pods = this.pods
      .list()
      .filter(
        (p) => p.metadata.namespace === namespace && p.metadata.labels?.[LABEL_AGENT] === name,
      );
    const observed = statefulSet === 'terminating' ? undefined : statefulSet;
    await this.writeStatus(
      agent,
      agentStatus({ agent, statefulSet: observed, pods, effective, now }),
    );
    if (policy === 'terminating' || service === 'terminating' || statefulSet === 'terminating') {
      return { requeueAfterMs: TERMINATING_RECHECK_MS };
    }
    return resync;
  }

  /** Writes the computed status (keeping what others write, such as costUsage) and its events. */
  private async writeStatus(agent: AgentRuntime, computed: ComputedAgentStatus): Promise<void> {
    const before: AgentRuntimeStatus | undefined = agent.status;
    if (await writeStatusIfChanged(this.clients.agentRuntimes, agent, { ...before, ...computed })) {
      for (const event of statusEvents(before, computed)) {
        await this.deps.recorder.record(agent, event.type, event.reason, event.message);
      }
    }
  }

  /** Refuses to take over an object of the agent's name that another owner or a person made. */
  private claimable(agent: AgentRuntime, kind: string, stored: StoredObject): boolean {
    const uid = agent.metadata.uid ?? '';
    const control = controlledBy(stored, uid);
    if (control === 'agent') return true;
    if (stored.metadata?.deletionTimestamp !== undefined) return false;
    throw new Error(
      control === 'other'
        ? `${kind} ${stored.metadata?.name} belongs to another owner: the agent's ${kind} cannot be made until it is gone`
        : `${kind} ${stored.metadata?.name} exists and was not made for this agent: delete or rename it`,
    );
  }

  private async applyService(
    agent: AgentRuntime,
    workspace: string,
  ): Promise<'terminating' | undefined> {
    const desired = desiredService(agent, workspace);
    const { name, namespace } = desired.metadata;
    const stored = await getIfExists(this.clients.services, name, namespace);
    if (stored === undefined) {
      await this.createOrRetry(this.clients.services, desired);
      return undefined;
    }
    if (!this.claimable(agent, 'Service', stored)) return 'terminating';
    const update = serviceUpdate(stored, desired);
    if (update !== undefined) await this.clients.services.replace(update);
    return undefined;
  }

  private async applyNetworkPolicy(
    agent: AgentRuntime,
    desired: AgentNetworkPolicyObject,
  ): Promise<'terminating' | undefined> {
    const { name, namespace } = desired.metadata;
    const stored = await getIfExists(this.clients.networkPolicies, name, namespace);
    if (stored === undefined) {
      await this.createOrRetry(this.clients.networkPolicies, desired);
      return undefined;
    }
    if (!this.claimable(agent, 'NetworkPolicy', stored)) return 'terminating';
    const update = networkPolicyUpdate(stored, desired);
    if (update !== undefined) await this.clients.networkPolicies.replace(update);
    return undefined;
  }

  /**
   * The agent loop's ServiceAccount, Role and RoleBinding while the agent names a provider; gone
   * (those it owns) once it names none.
   */
  private async applyAgentAccess(agent: AgentRuntime, workspace: string): Promise<void> {
    const access = desiredAgentAccess(agent, workspace);
    const pairs = [
      [this.clients.serviceAccounts, access.serviceAccount],
      [this.clients.roles, access.role],
      [this.clients.roleBindings, access.roleBinding],
    ] as const;
    for (const [client, desired] of pairs) {
      const { name, namespace } = desired.metadata;
      const stored = await getIfExists(client, name, namespace);
      if (!runsAgentLoop(agent)) {
        if (stored !== undefined && controlledBy(stored, agent.metadata.uid ?? '') === 'agent')
          await deleteIfExists(client, name, namespace);
        continue;
      }
      if (stored !== undefined && !this.claimable(agent, desired.kind, stored)) continue;
      await ensureObject(client, desired as unknown as StoredObject, stored ?? null);
    }
  }

  /** The StatefulSet as it now is (undefined right after creating it), or 'terminating'. */
  private async applyStatefulSet(
    agent: AgentRuntime,
    wanted: StatefulSetObject,
  ): Promise<ObservedStatefulSet | 'terminating' | undefined> {
    const { name, namespace } = wanted.metadata;
    const stored = await getIfExists(this.clients.statefulSets, name, namespace);
    if (stored === undefined) {
      return (await this.createOrRetry(this.clients.statefulSets, wanted)) as ObservedStatefulSet;
    }
    if (!this.claimable(agent, 'StatefulSet', stored)) return 'terminating';
    const { desired, missing } = withClaimsOf(stored, wanted);
    const fixed = fixedFieldsDiffering(stored, desired);
    if (fixed.length > 0) {
      this.logger.debug(
        { agent: `${namespace}/${name}`, fields: fixed },
        'fields a StatefulSet cannot change keep their first value',
      );
    }
    const update = statefulSetUpdate(stored, desired);
    const current = update === undefined ? stored : await this.clients.statefulSets.replace(update);
    if (update !== undefined && missing.length > 0) {
      await this.deps.recorder.warning(
        agent,
        'RunsNotKept',
        `The StatefulSet ${name} was made before the agent named a provider and cannot gain the claim ${missing.join(', ')}: the agent's runs are kept on an emptyDir and lost when a pod is replaced. Recreate the agent to keep them.`,
      );
    }
    return current as ObservedStatefulSet;
  }

  /** Creates the object; one created meanwhile is compared by the next pass (a retry). */
  private async createOrRetry(
    client: AgentClients['services'],
    desired: StoredObject,
  ): Promise<StoredObject> {
    try {
      return await client.create(desired);
    } catch (err) {
      if (err instanceof AlreadyExistsError) {
        throw new Error(`${desired.metadata?.name} was created meanwhile; comparing again`, {
          cause: err,
        });
      }
      throw err;
    }
  }
}
