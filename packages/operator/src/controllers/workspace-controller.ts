import type { Logger, Mailer } from '@paddock/common';
import {
  ForbiddenError,
  Informer,
  identityOnly,
  parseRfc3339,
  type Kube,
  type KubeObject,
  type ResourceClient,
  type Workspace,
  type WorkspaceStatus,
  WorkQueue,
  type ProcessResult,
} from '@paddock/kube';
import type { EventRecorder } from '../runtime/events.js';
import type { OperatorMetrics } from '../runtime/metrics.js';
import { writeStatusIfChanged } from '../runtime/status.js';
import {
  ANNOTATION_EXPIRES,
  LABEL_BINDING_SOURCE,
  LABEL_MANAGED_BY,
  MANAGED_BY,
  QUOTA_NAME,
  WORKSPACE_CLUSTER_ROLES,
  desiredNamespace,
  withoutStaleSpecKeys,
  desiredNetworkPolicy,
  desiredAgentPodsPolicy,
  agentPodsPolicyName,
  desiredResourceQuota,
  desiredRoleBindings,
  desiredServiceAccounts,
  isOwnedBy,
  isolationPolicyName,
  memberCounts,
  ownedSelector,
  planNamespace,
  pruneBindings,
  serviceAccountNames,
  workspaceConditions,
  type ClusterRoleObject,
  type StepState,
  type WorkspaceFacts,
} from '../workspace/index.js';
import { applyAgentControls, type AgentControlsOutcome } from './workspace/agent-controls.js';
import { removeWorkspaceObjects } from './workspace/cleanup.js';
import { workspaceClients, type WorkspaceClients } from './workspace/clients.js';
import { covers } from './workspace/covers.js';
import { deleteIfExists, ensureObject, getIfExists, mergeInto } from './workspace/ensure-object.js';
import { leanOwnedRef, leanWorkspaceRef, type WorkspaceRef } from './workspace/lean-objects.js';
import { StringPool } from '../runtime/string-pool.js';

export const WORKSPACE_FINALIZER = 'paddock.dev/workspace-cleanup';
export const WORKSPACE_CONTROLLER = 'workspace';

/** A namespace that is missing or held by another Workspace is looked at again this often. */
const NAMESPACE_RECHECK_MS = 30_000;
/** A namespace being deleted usually goes within seconds. */
const TERMINATING_RECHECK_MS = 2_000;
/** Past a grant's expiry, so that the grant reads as over when the pass runs. */
const EXPIRY_MARGIN_MS = 50;

export interface WorkspaceControllerDeps {
  kube: Kube;
  recorder: EventRecorder;
  metrics: OperatorMetrics;
  logger: Logger;
  /** Budget alert notifications. */
  mailer: Mailer;
  /** Where the dashboard and the operator run: isolated workspaces still accept its traffic. */
  platformNamespace: string;
  workers?: number;
  now?: () => number;
}

/**
 * Makes the cluster hold what each Workspace declares: its namespace, ServiceAccounts, RoleBindings,
 * ResourceQuota and isolation NetworkPolicy, and reports the outcome in status. Workspaces and the
 * objects made for them are watched, so a change to either (drift included) is reconciled.
 */
export class WorkspaceController {
  private readonly clients: WorkspaceClients;
  private readonly queue: WorkQueue;
  private readonly informers: { start(): unknown; stop(): void; readonly synced: Promise<void> }[] =
    [];
  private readonly now: () => number;
  /** Namespace → the Workspaces naming it, so that an AgentRuntime's change reconciles its Workspace. */
  private readonly byNamespace = new Map<string, Set<string>>();

  constructor(private readonly deps: WorkspaceControllerDeps) {
    this.clients = workspaceClients(deps.kube);
    this.now = deps.now ?? Date.now;
    this.queue = new WorkQueue((name) => this.reconcile(name), {
      workers: deps.workers ?? 2,
      onProcessed: (name, outcome, seconds, error) => {
        deps.metrics.observeReconcile(WORKSPACE_CONTROLLER, outcome, seconds);
        if (error !== undefined) {
          deps.logger.warn({ err: error, workspace: name }, 'workspace reconcile failed');
        }
      },
    });
    deps.metrics.trackQueue(WORKSPACE_CONTROLLER, this.queue);
  }

  async start(): Promise<void> {
    await this.ensureClusterRoles();
    const onError = (err: unknown) => this.deps.logger.warn({ err }, 'workspace watch failed');
    // What the informers keep is only what routes a change to its Workspace (lean-objects.ts):
    // a pass reads what it works on from the cluster.
    const strings = new StringPool();
    const workspaces = new Informer<Workspace, WorkspaceRef>(
      this.clients.workspaces,
      {},
      onError,
      leanWorkspaceRef(strings),
    );
    workspaces.on((event, object, old) => {
      const name = object.metadata.name;
      if (name === '') return;
      this.trackNamespace(
        name,
        old ?? (event === 'delete' ? object : undefined),
        event === 'delete' ? undefined : object,
      );
      if (event !== 'delete') this.queue.add(name);
    });
    this.informers.push(workspaces);
    // Agents report their spend in their status: a report reconciles their Workspace.
    const agents = new Informer(this.clients.agentRuntimes, {}, onError, identityOnly);
    agents.on((_event, object) => {
      const namespace = object.metadata.namespace;
      if (namespace === undefined) return;
      for (const name of this.byNamespace.get(namespace) ?? []) this.queue.add(name);
    });
    this.informers.push(agents);
    // What the controller made carries the owner's name: any change to it reconciles the owner.
    const managed = { labelSelector: `${LABEL_MANAGED_BY}=${MANAGED_BY}` };
    const owned: ResourceClient<KubeObject>[] = [
      this.clients.namespaces,
      this.clients.roleBindings,
      this.clients.serviceAccounts,
      this.clients.resourceQuotas,
      this.clients.networkPolicies,
    ];
    for (const client of owned) {
      const informer = new Informer(client, managed, onError, leanOwnedRef(strings));
      informer.on((_event, object) => {
        if (object.owner !== undefined) this.queue.add(object.owner);
      });
      this.informers.push(informer);
    }
    for (const informer of this.informers) informer.start();
    await Promise.all(this.informers.map((informer) => informer.synced));
    this.queue.start();
  }

  async stop(): Promise<void> {
    for (const informer of this.informers) informer.stop();
    await this.queue.shutdown();
  }

  /** Moves the Workspace `name` from the namespace it named before to the one it names now. */
  private trackNamespace(
    name: string,
    before: WorkspaceRef | undefined,
    now: WorkspaceRef | undefined,
  ): void {
    const from = before?.spec.namespace.name;
    const to = now?.spec.namespace.name;
    if (from === to) return;
    if (from !== undefined) {
      const names = this.byNamespace.get(from);
      names?.delete(name);
      if (names?.size === 0) this.byNamespace.delete(from);
    }
    if (to !== undefined) {
      this.byNamespace.set(to, (this.byNamespace.get(to) ?? new Set()).add(name));
    }
  }

  /**
   * Creates or updates the three workspace ClusterRoles that every RoleBinding refers to. Where the
   * install ships them and the operator may not write ClusterRoles (deploy/base), it only checks
   * that they exist: a missing one stops the start with an error that says what to apply.
   */
  private async ensureClusterRoles(): Promise<void> {
    const shipped: string[] = [];
    for (const role of WORKSPACE_CLUSTER_ROLES) {
      try {
        await ensureObject(this.clients.clusterRoles, role);
      } catch (err) {
        if (!(err instanceof ForbiddenError)) throw err;
        await this.checkShippedClusterRole(role);
        shipped.push(role.metadata.name);
      }
    }
    if (shipped.length > 0) {
      this.deps.logger.info(
        { clusterRoles: shipped },
        'the operator may not write ClusterRoles: using the workspace ClusterRoles the install provides',
      );
    }
  }

  /** The ClusterRole exists (else a clear error); one that differs from this version's is logged. */
  private async checkShippedClusterRole(role: ClusterRoleObject): Promise<void> {
    const name = role.metadata.name;
    let found: ClusterRoleObject | undefined;
    try {
      found = await getIfExists(this.clients.clusterRoles, name);
    } catch (err) {
      if (!(err instanceof ForbiddenError)) throw err;
      throw new Error(
        `the operator may neither create nor read the ClusterRole ${name}: grant it get (and bind) on that ClusterRole, or create and update on clusterroles`,
        { cause: err },
      );
    }
    if (found === undefined) {
      throw new Error(
        `the ClusterRole ${name} does not exist and the operator may not create it: apply deploy/operator/ (kubectl apply -k deploy/base) before starting the operator`,
      );
    }
    if (!covers(found.rules, role.rules)) {
      this.deps.logger.warn(
        { clusterRole: name },
        'the workspace ClusterRole differs from the one this operator version defines: apply the manifests of this version',
      );
    }
  }

  /** One pass over the named Workspace; public so that a pass can be run and observed directly. */
  async reconcile(name: string): Promise<ProcessResult> {
    let workspace = await getIfExists(this.clients.workspaces, name);
    if (workspace === undefined) return {};
    const finalizers = workspace.metadata.finalizers ?? [];
    if (workspace.metadata.deletionTimestamp !== undefined) {
      if (finalizers.includes(WORKSPACE_FINALIZER)) await this.finalize(workspace);
      return {};
    }
    if (!finalizers.includes(WORKSPACE_FINALIZER)) {
      workspace = await this.clients.workspaces.replace({
        ...workspace,
        metadata: { ...workspace.metadata, finalizers: [...finalizers, WORKSPACE_FINALIZER] },
      });
    }
    return this.apply(workspace);
  }

  private async finalize(workspace: Workspace): Promise<void> {
    const outcome = await removeWorkspaceObjects(this.clients, workspace);
    const namespace = workspace.spec.namespace.name;
    if (outcome === 'deleted') {
      await this.deps.recorder.normal(
        workspace,
        'NamespaceDeleted',
        `Deleted namespace ${namespace}, which this Workspace created.`,
      );
    } else if (outcome === 'released') {
      await this.deps.recorder.normal(
        workspace,
        'NamespaceReleased',
        `Left the adopted namespace ${namespace} in place.`,
      );
    }
    const finalizers = (workspace.metadata.finalizers ?? []).filter(
      (f) => f !== WORKSPACE_FINALIZER,
    );
    await this.clients.workspaces.replace({
      ...workspace,
      metadata: { ...workspace.metadata, finalizers },
    });
  }

  private async apply(found: Workspace): Promise<ProcessResult> {
    let workspace = found;
    const now = new Date(this.now());
    const namespace = await this.applyNamespace(workspace);
    const facts: WorkspaceFacts = {
      namespace,
      serviceAccounts: { ready: false },
      roleBindings: { ready: false },
      ...(workspace.spec.networkPolicy?.isolate === true && { networkPolicy: { ready: false } }),
    };
    // Unfinished work (a namespace still going or pending) is requeued; finished work is looked at
    // again when something it wrote runs out (a grant's expiry, the daily budget), as a resync.
    let requeueAfterMs: number | undefined;
    let resyncAfterMs: number | undefined;
    let rulesCount = 0;
    let agentControls: AgentControlsOutcome | undefined;
    const failures: unknown[] = [];
    const step = async (run: () => Promise<void>): Promise<StepState> => {
      try {
        await run();
        return { ready: true };
      } catch (err) {
        failures.push(err);
        return { ready: false, error: err instanceof Error ? err.message : String(err) };
      }
    };

    if (namespace.state === 'created' || namespace.state === 'adopted') {
      facts.serviceAccounts = await step(() => this.applyServiceAccounts(workspace));
      facts.roleBindings = await step(async () => {
        const expiry = await this.applyRoleBindings(workspace, now);
        if (expiry !== undefined) {
          resyncAfterMs = Math.max(0, expiry.getTime() - now.getTime()) + EXPIRY_MARGIN_MS;
        }
      });
      // No condition covers the quota: a failure shows in the event and the retry.
      await step(() => this.applyQuota(workspace));
      const policy = await step(async () => {
        rulesCount = await this.applyNetworkPolicy(workspace);
      });
      if (facts.networkPolicy) facts.networkPolicy = policy;
      await step(async () => {
        agentControls = await applyAgentControls(
          {
            clients: this.clients,
            recorder: this.deps.recorder,
            logger: this.deps.logger,
            mailer: this.deps.mailer,
          },
          workspace,
          now,
        );
      });
    } else if (namespace.state === 'terminating') {
      requeueAfterMs = TERMINATING_RECHECK_MS;
    } else if (namespace.state !== 'pending') {
      requeueAfterMs = NAMESPACE_RECHECK_MS;
    }

    if (agentControls !== undefined) {
      workspace = agentControls.workspace;
      if (agentControls.budget) facts.budget = agentControls.budget;
      if (agentControls.suspended !== undefined) facts.suspended = agentControls.suspended;
      if (agentControls.resyncAfterMs !== undefined) {
        resyncAfterMs = Math.min(resyncAfterMs ?? Infinity, agentControls.resyncAfterMs);
      }
    }
    const costUsage = agentControls?.costUsage ?? workspace.status?.costUsage;
    const { phase, conditions } = workspaceConditions(facts, {
      now,
      ...(workspace.metadata.generation === undefined
        ? {}
        : { generation: workspace.metadata.generation }),
      ...(workspace.status?.conditions && { previous: workspace.status.conditions }),
    });
    const isolated = facts.networkPolicy !== undefined;
    const status: WorkspaceStatus = {
      phase,
      ...(workspace.metadata.generation !== undefined && {
        observedGeneration: workspace.metadata.generation,
      }),
      namespace: { name: namespace.name, created: namespace.state === 'created' },
      serviceAccounts: serviceAccountNames(),
      members: memberCounts(workspace, now),
      networkPolicy: isolated
        ? { name: isolationPolicyName(workspace), enabled: true, rulesCount }
        : { enabled: false, rulesCount: 0 },
      // Without cost controls, whatever costUsage was found is kept.
      ...(costUsage && { costUsage }),
      conditions,
    };
    await writeStatusIfChanged(this.clients.workspaces, workspace, status);

    if (failures.length > 0) {
      const message = failures.map((e) => (e instanceof Error ? e.message : String(e))).join('; ');
      await this.deps.recorder.warning(workspace, 'ReconcileFailed', message);
      throw failures[0];
    }
    return {
      ...(requeueAfterMs !== undefined && { requeueAfterMs }),
      ...(resyncAfterMs !== undefined && { resyncAfterMs }),
    };
  }

  /** Creates, updates or adopts the namespace, and says what state it is in. */
  private async applyNamespace(workspace: Workspace): Promise<WorkspaceFacts['namespace']> {
    const name = workspace.spec.namespace.name;
    const existing = await getIfExists(this.clients.namespaces, name);
    const plan = planNamespace(workspace, existing);
    const { recorder } = this.deps;
    if (plan.action === 'missing' || plan.action === 'terminating') {
      return { name, state: plan.action };
    }
    if (plan.action === 'conflict') {
      await recorder.warning(
        workspace,
        'NamespaceConflict',
        `Namespace ${name} belongs to Workspace ${plan.owner}.`,
      );
      return { name, state: 'conflict', owner: plan.owner };
    }
    const { namespace, ignored } = desiredNamespace(workspace, { created: plan.created });
    if (ignored.length > 0) {
      const keys = ignored.map((k) => `${k.source}: ${k.key}`).join(', ');
      await recorder.warning(workspace, 'ReservedKeysIgnored', `Reserved keys ignored (${keys}).`);
    }
    try {
      const pruned = existing && withoutStaleSpecKeys(existing, namespace);
      if (pruned !== undefined) {
        await this.clients.namespaces.replace(mergeInto(pruned, namespace));
      } else {
        await ensureObject(this.clients.namespaces, namespace, existing ?? null);
      }
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await recorder.warning(workspace, 'NamespaceFailed', message);
      return { name, state: 'pending', error: message };
    }
    if (plan.action === 'create') {
      await recorder.normal(workspace, 'NamespaceCreated', `Created namespace ${name}.`);
    } else if (plan.action === 'adopt') {
      await recorder.normal(workspace, 'NamespaceAdopted', `Adopted existing namespace ${name}.`);
    }
    return { name, state: plan.created ? 'created' : 'adopted' };
  }

  private async applyServiceAccounts(workspace: Workspace): Promise<void> {
    for (const account of desiredServiceAccounts(workspace)) {
      await ensureObject(this.clients.serviceAccounts, account);
    }
  }

  /** Creates and updates the desired bindings, prunes the rest; returns the next grant expiry. */
  private async applyRoleBindings(workspace: Workspace, now: Date): Promise<Date | undefined> {
    const namespace = workspace.spec.namespace.name;
    const client = this.clients.roleBindings;
    const { bindings, nextExpiry } = desiredRoleBindings(workspace, now);
    const existing = (await client.listAll({ namespace, labelSelector: ownedSelector(workspace) }))
      .items;
    for (const binding of bindings) {
      const found = existing.find((b) => b.metadata.name === binding.metadata.name);
      if (found !== undefined && !covers(found.roleRef, binding.roleRef)) {
        // roleRef cannot be changed in place.
        await deleteIfExists(client, binding.metadata.name, namespace);
        await client.create(binding);
        continue;
      }
      await ensureObject(client, binding, found ?? null);
    }
    for (const stale of pruneBindings(existing, bindings, workspace)) {
      await deleteIfExists(client, stale.metadata.name, namespace);
      const expires = stale.metadata.annotations?.[ANNOTATION_EXPIRES];
      const expired =
        stale.metadata.labels?.[LABEL_BINDING_SOURCE] === 'directGrant' &&
        expires !== undefined &&
        (parseRfc3339(expires) ?? 0) <= now.getTime();
      const subject = stale.subjects.map((s) => s.name).join(', ');
      await this.deps.recorder.normal(
        workspace,
        expired ? 'GrantExpired' : 'RoleBindingRemoved',
        expired
          ? `The direct grant to ${subject} expired; removed RoleBinding ${stale.metadata.name}.`
          : `Removed RoleBinding ${stale.metadata.name}, no longer in the spec.`,
      );
    }
    return nextExpiry;
  }

  private async applyQuota(workspace: Workspace): Promise<void> {
    const namespace = workspace.spec.namespace.name;
    const desired = desiredResourceQuota(workspace);
    if (desired !== undefined) {
      await ensureObject(this.clients.resourceQuotas, desired);
      return;
    }
    const found = await getIfExists(this.clients.resourceQuotas, QUOTA_NAME, namespace);
    if (found && isOwnedBy(found, workspace)) {
      await deleteIfExists(this.clients.resourceQuotas, QUOTA_NAME, namespace);
    }
  }

  /** Applies or removes the isolation policy; returns its rule count (0 when off). */
  private async applyNetworkPolicy(workspace: Workspace): Promise<number> {
    const namespace = workspace.spec.namespace.name;
    const name = isolationPolicyName(workspace);
    const desired = desiredNetworkPolicy(workspace, {
      platformNamespace: this.deps.platformNamespace,
    });
    // The pods the isolation policy leaves to their agents' own policies: any pod labelled as an
    // agent's that no agent's policy selects (one a workspace editor made) stays isolated.
    const agentPods = desiredAgentPodsPolicy(workspace, {
      platformNamespace: this.deps.platformNamespace,
    });
    if (desired !== undefined && agentPods !== undefined) {
      await ensureObject(this.clients.networkPolicies, desired.policy);
      await ensureObject(this.clients.networkPolicies, agentPods);
      return desired.rulesCount;
    }
    const agentPodsName = agentPodsPolicyName(workspace);
    const agentPodsFound = await getIfExists(
      this.clients.networkPolicies,
      agentPodsName,
      namespace,
    );
    if (agentPodsFound && isOwnedBy(agentPodsFound, workspace)) {
      await deleteIfExists(this.clients.networkPolicies, agentPodsName, namespace);
    }
    const found = await getIfExists(this.clients.networkPolicies, name, namespace);
    if (found && isOwnedBy(found, workspace)) {
      await deleteIfExists(this.clients.networkPolicies, name, namespace);
      await this.deps.recorder.normal(
        workspace,
        'NetworkPolicyRemoved',
        `Isolation turned off: removed NetworkPolicy ${name}.`,
      );
    }
    return 0;
  }
}
