import type { Writable } from 'node:stream';
import { ClusterConfig } from './cluster-config.js';
import { CORE_KINDS, resourcePath, type ApiResource } from './kinds.js';
import { loadKubeConfig, type ClusterTarget } from './kube-config.js';
import { ResourceClient, type KubeObject } from './resource-client.js';
import { RestClient, type AgentPool } from './rest.js';

/** Shortest and default lifetime of a minted ServiceAccount token, in seconds (Kubernetes' own). */
export const MIN_TOKEN_SECONDS = 600;
export const DEFAULT_TOKEN_SECONDS = 3600;

export interface LogOptions {
  container?: string;
  tailLines?: number;
  sinceSeconds?: number;
  timestamps?: boolean;
}

/** A core Event, as far as Paddock reads and writes it. */
export interface KubeEvent extends KubeObject {
  involvedObject: {
    kind?: string;
    name?: string;
    namespace?: string;
    uid?: string;
    apiVersion?: string;
  };
  reason?: string;
  message?: string;
  type?: 'Normal' | 'Warning';
  count?: number;
  firstTimestamp?: string;
  lastTimestamp?: string;
  source?: { component?: string };
}

/**
 * One cluster, real or embedded: typed clients per kind, ServiceAccount tokens, pod logs and
 * events. Every component of Paddock talks to Kubernetes through this.
 */
export class Kube {
  readonly rest: RestClient;
  /** Whether the keep-alive agents are this client's own (else a parent's, which ends them). */
  private readonly ownsAgents: boolean;

  constructor(
    readonly config: ClusterConfig,
    /** A parent's agents, for a client that shares its connections (see `as`). */
    agents?: AgentPool,
  ) {
    this.rest = new RestClient(config, agents);
    this.ownsAgents = agents === undefined;
  }

  /** The cluster of the environment (see loadKubeConfig), or the one named. */
  static connect(target: ClusterTarget = {}): Kube {
    return new Kube(loadKubeConfig(target));
  }

  /** A cluster as a given bearer token sees it (e.g. a workspace ServiceAccount's). */
  as(token: string): Kube {
    const cluster = this.config.getCurrentCluster();
    if (!cluster) throw new Error('the cluster has no server address');
    // The same server and certificate authority, another user.
    const config = ClusterConfig.fromClusterAndUser(cluster, { name: 'token', token });
    // Its connections are this client's: made once for every token, ended by this one's close().
    return new Kube(config, this.rest.agents);
  }

  /**
   * Ends the client's keep-alive connections (those of its `as` clients too); watches end on their
   * own stop functions. A client made by `as` leaves them to the client it came from.
   */
  close(): void {
    if (this.ownsAgents) this.rest.agents.close();
  }

  resource<T extends KubeObject>(kind: ApiResource): ResourceClient<T> {
    return new ResourceClient<T>(this.rest, kind);
  }

  /** TokenRequest: a short-lived token of a ServiceAccount, bound to the audiences given. */
  async requestToken(
    namespace: string,
    serviceAccount: string,
    options: { expirationSeconds?: number; audiences?: string[] } = {},
  ): Promise<{ token: string; expirationTimestamp: string }> {
    const path = resourcePath(CORE_KINDS.serviceAccount, {
      namespace,
      name: serviceAccount,
      subresource: 'token',
    });
    const spec: Record<string, unknown> = {
      expirationSeconds: Math.max(
        MIN_TOKEN_SECONDS,
        options.expirationSeconds ?? DEFAULT_TOKEN_SECONDS,
      ),
    };
    if (options.audiences) spec.audiences = options.audiences;
    const answer = await this.rest.request<{
      status: { token: string; expirationTimestamp: string };
    }>('POST', path, {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec },
    });
    return answer.status;
  }

  /** The log of a pod's container, as text. */
  podLogs(namespace: string, pod: string, options: LogOptions = {}): Promise<string> {
    return this.rest.text(
      resourcePath(CORE_KINDS.pod, { namespace, name: pod, subresource: 'log' }),
      {
        container: options.container,
        tailLines: options.tailLines,
        sinceSeconds: options.sinceSeconds,
        timestamps: options.timestamps,
      },
    );
  }

  /**
   * Appends text to a pod container's log. The embedded cluster's own verb: it runs no containers,
   * so whatever runs an agent's process for it writes the output there (real clusters' kubelets
   * collect logs themselves and answer this with 405).
   */
  async appendPodLog(namespace: string, pod: string, text: string, container?: string) {
    await this.rest.request(
      'POST',
      resourcePath(CORE_KINDS.pod, { namespace, name: pod, subresource: 'log' }),
      { body: text, contentType: 'text/plain', query: { container } },
    );
  }

  /** Assigns an unscheduled pod to a node (pods/binding), as a scheduler does. */
  async bindPod(namespace: string, pod: string, node: string): Promise<void> {
    await this.rest.request(
      'POST',
      resourcePath(CORE_KINDS.pod, { namespace, name: pod, subresource: 'binding' }),
      {
        body: JSON.stringify({
          apiVersion: 'v1',
          kind: 'Binding',
          metadata: { name: pod, namespace },
          target: { apiVersion: 'v1', kind: 'Node', name: node },
        }),
        contentType: 'application/json',
      },
    );
  }

  /** Follows a pod's log into a stream until stopped or the pod ends. Returns the stop function. */
  async followPodLogs(
    namespace: string,
    pod: string,
    container: string,
    into: Writable,
    options: Omit<LogOptions, 'container'> = {},
  ): Promise<() => void> {
    return this.rest.stream(
      resourcePath(CORE_KINDS.pod, { namespace, name: pod, subresource: 'log' }),
      {
        container,
        follow: true,
        tailLines: options.tailLines,
        sinceSeconds: options.sinceSeconds,
        timestamps: options.timestamps,
      },
      into,
    );
  }

  /** The events of one object, oldest first. */
  async eventsFor(
    namespace: string,
    involved: { name: string; kind?: string },
  ): Promise<KubeEvent[]> {
    const selectors = [`involvedObject.name=${involved.name}`];
    if (involved.kind !== undefined) selectors.push(`involvedObject.kind=${involved.kind}`);
    const list = await this.resource<KubeEvent>(CORE_KINDS.event).list({
      namespace,
      fieldSelector: selectors.join(','),
    });
    const when = (e: KubeEvent) =>
      e.lastTimestamp ?? e.firstTimestamp ?? e.metadata?.creationTimestamp ?? '';
    return list.items.sort((a, b) => when(a).localeCompare(when(b)));
  }
}
