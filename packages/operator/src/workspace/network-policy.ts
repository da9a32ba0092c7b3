import {
  LABEL_AGENT,
  LABEL_SHARED,
  type Workspace,
  type WorkspaceNetworkRule,
} from '@paddock/kube';
import type {
  LabelSelector,
  NetworkPolicyEgressRule,
  NetworkPolicyIngressRule,
  NetworkPolicyObject,
  NetworkPolicyPeer,
  NetworkPolicyPort,
} from './kube-objects.js';
import { ownedMetadata } from './ownership.js';

/** Where the dashboard and the operator run; their traffic into a workspace is always let in. */
export const DEFAULT_PLATFORM_NAMESPACE = 'paddock-system';
/** Where the cluster's DNS runs. */
export const SYSTEM_NAMESPACE = 'kube-system';
/** The label the API server sets on every namespace to its own name. */
export const LABEL_NAMESPACE_NAME = 'kubernetes.io/metadata.name';
export const PRIVATE_IPV4_RANGES = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'];
/**
 * IPv6 has no RFC 1918 ranges; unique local addresses (RFC 4193) are their counterpart, so IPv6
 * egress gets the same treatment as IPv4 and a dual-stack cluster leaves no private route open.
 */
export const PRIVATE_IPV6_RANGES = ['fc00::/7'];

/** A peer of allowFrom or allowTo that Kubernetes would refuse, left out of the policy. */
export interface IgnoredPeer {
  field: 'allowFrom' | 'allowTo';
  rule: number;
  peer: number;
  reason: string;
}

export interface DesiredNetworkPolicy {
  policy: NetworkPolicyObject;
  /** Ingress and egress rules together, for status.networkPolicy.rulesCount. */
  rulesCount: number;
  ignored: IgnoredPeer[];
}

export function isolationPolicyName(workspace: Workspace): string {
  return `workspace-${workspace.metadata.name}-isolation`;
}

/**
 * The pods the isolation policy selects: all but agents' pods. NetworkPolicies add up, so a policy
 * letting the namespace in on every port would open the sandbox's ports of every agent pod it
 * selected; each agent's own policy (agentruntime/desired-network-policy.ts) selects them instead,
 * with these same rules limited to the ports the agent declares (docs/decisions/0023).
 */
export const NON_AGENT_PODS: LabelSelector = {
  matchExpressions: [{ key: LABEL_AGENT, operator: 'DoesNotExist' }],
};

/** What an isolating workspace lets in and out, before a policy applies it to pods. */
export interface IsolationRules {
  ingress: NetworkPolicyIngressRule[];
  egress: NetworkPolicyEgressRule[];
  ignored: IgnoredPeer[];
}

/**
 * The rules of networkPolicy, or undefined unless networkPolicy.isolate: DNS, the namespace
 * itself, shared namespaces, the platform's namespace, the internet, private networks, and the
 * spec's own rules, appended last. Both the isolation policy and each agent's policy apply them.
 */
export function isolationRules(
  workspace: { spec: Pick<Workspace['spec'], 'networkPolicy'> },
  options: { platformNamespace?: string } = {},
): IsolationRules | undefined {
  const settings = workspace.spec.networkPolicy ?? {};
  if (settings.isolate !== true) return undefined;
  const allowExternal = settings.allowExternalAPIs ?? true;
  const allowShared = settings.allowSharedNamespaces ?? true;
  const allowPrivate = settings.allowPrivateNetworks ?? false;

  const ownNamespace: NetworkPolicyPeer = { podSelector: {} };
  const shared: NetworkPolicyPeer = {
    namespaceSelector: { matchLabels: { [LABEL_SHARED]: 'true' } },
  };
  const platform = namespaceNamed(options.platformNamespace ?? DEFAULT_PLATFORM_NAMESPACE);
  const ignored: IgnoredPeer[] = [];

  const ingress: NetworkPolicyIngressRule[] = [
    { from: [ownNamespace] },
    ...(allowShared ? [{ from: [shared] }] : []),
    { from: [platform] },
    ...customRules(settings.allowFrom, 'allowFrom', ignored).map(({ peers, ports }) => ({
      ...(peers && { from: peers }),
      ...(ports && { ports }),
    })),
  ];

  const outside = outsideDestinations(allowExternal, allowPrivate);
  const egress: NetworkPolicyEgressRule[] = [
    {
      to: [namespaceNamed(SYSTEM_NAMESPACE)],
      ports: [
        { protocol: 'UDP', port: 53 },
        { protocol: 'TCP', port: 53 },
      ],
    },
    { to: [ownNamespace] },
    ...(allowShared ? [{ to: [shared] }] : []),
    ...(outside.length > 0 ? [{ to: outside }] : []),
    ...customRules(settings.allowTo, 'allowTo', ignored).map(({ peers, ports }) => ({
      ...(peers && { to: peers }),
      ...(ports && { ports }),
    })),
  ];
  return { ingress, egress, ignored };
}

/**
 * The isolation NetworkPolicy, or undefined unless networkPolicy.isolate (the controller then
 * deletes any it made). Selecting the pods with both policy types denies them all traffic but what
 * the isolation rules allow. Agents' pods are left to their own policies (see NON_AGENT_PODS).
 */
export function desiredNetworkPolicy(
  workspace: Workspace,
  options: { platformNamespace?: string } = {},
): DesiredNetworkPolicy | undefined {
  const rules = isolationRules(workspace, options);
  if (rules === undefined) return undefined;
  const { ingress, egress, ignored } = rules;
  return {
    policy: workspacePolicy(workspace, isolationPolicyName(workspace), {
      podSelector: NON_AGENT_PODS,
      policyTypes: ['Ingress', 'Egress'],
      ingress,
      egress,
    }),
    rulesCount: ingress.length + egress.length,
    ignored,
  };
}

export function agentPodsPolicyName(workspace: Workspace): string {
  return `workspace-${workspace.metadata.name}-agent-pods`;
}

/**
 * The isolation policy's counterpart for the pods it leaves out, or undefined unless
 * networkPolicy.isolate: every pod carrying the agent label gets no ingress and the isolation
 * egress rules. An agent's pods get their ingress from their agent's policy; a pod a member labels
 * as an agent's to slip out of isolation gets nothing more than an agent has (docs/decisions/0023).
 */
export function desiredAgentPodsPolicy(
  workspace: Workspace,
  options: { platformNamespace?: string } = {},
): NetworkPolicyObject | undefined {
  const rules = isolationRules(workspace, options);
  if (rules === undefined) return undefined;
  return workspacePolicy(workspace, agentPodsPolicyName(workspace), {
    podSelector: { matchExpressions: [{ key: LABEL_AGENT, operator: 'Exists' }] },
    policyTypes: ['Ingress', 'Egress'],
    ingress: [],
    egress: rules.egress,
  });
}

/** A NetworkPolicy the workspace owns, in its namespace. */
function workspacePolicy(
  workspace: Workspace,
  name: string,
  spec: NetworkPolicyObject['spec'],
): NetworkPolicyObject {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: ownedMetadata(workspace, name, workspace.spec.namespace.name),
    spec,
  };
}

/**
 * Egress outside the cluster's namespaces: the internet without the private ranges
 * (allowExternalAPIs), everything (with allowPrivateNetworks too), or only the private ranges
 * (allowPrivateNetworks alone).
 */
function outsideDestinations(allowExternal: boolean, allowPrivate: boolean): NetworkPolicyPeer[] {
  if (allowExternal && allowPrivate) {
    return [{ ipBlock: { cidr: '0.0.0.0/0' } }, { ipBlock: { cidr: '::/0' } }];
  }
  if (allowExternal) {
    return [
      { ipBlock: { cidr: '0.0.0.0/0', except: [...PRIVATE_IPV4_RANGES] } },
      { ipBlock: { cidr: '::/0', except: [...PRIVATE_IPV6_RANGES] } },
    ];
  }
  if (allowPrivate) {
    return [...PRIVATE_IPV4_RANGES, ...PRIVATE_IPV6_RANGES].map((cidr) => ({ ipBlock: { cidr } }));
  }
  return [];
}

/** A peer: every pod of the namespace of that name. */
export function namespaceNamed(name: string): NetworkPolicyPeer {
  return { namespaceSelector: { matchLabels: { [LABEL_NAMESPACE_NAME]: name } } };
}

/**
 * The spec's allowFrom or allowTo rules as Kubernetes writes them. A rule without peers applies to
 * every peer, as in Kubernetes; a rule whose every peer had to be left out is dropped instead, so
 * that a mistake never widens access to everything.
 */
function customRules(
  rules: readonly WorkspaceNetworkRule[] | undefined,
  field: IgnoredPeer['field'],
  ignored: IgnoredPeer[],
): { peers?: NetworkPolicyPeer[]; ports?: NetworkPolicyPort[] }[] {
  const converted: { peers?: NetworkPolicyPeer[]; ports?: NetworkPolicyPort[] }[] = [];
  (rules ?? []).forEach((rule, ruleIndex) => {
    const written = rule.peers ?? [];
    const peers: NetworkPolicyPeer[] = [];
    written.forEach((peer, peerIndex) => {
      const result = convertPeer(peer);
      if (typeof result === 'string') {
        ignored.push({ field, rule: ruleIndex, peer: peerIndex, reason: result });
      } else {
        peers.push(result);
      }
    });
    if (written.length > 0 && peers.length === 0) return;
    const ports = (rule.ports ?? []).map((p): NetworkPolicyPort => ({
      protocol: p.protocol ?? 'TCP',
      ...(p.port === undefined ? {} : { port: p.port }),
    }));
    converted.push({
      ...(peers.length > 0 && { peers }),
      ...(ports.length > 0 && { ports }),
    });
  });
  return converted;
}

type SpecPeer = NonNullable<WorkspaceNetworkRule['peers']>[number];

/** The Kubernetes peer, or why it cannot be one. */
function convertPeer(peer: SpecPeer): NetworkPolicyPeer | string {
  const hasSelector = peer.namespaceSelector !== undefined || peer.podSelector !== undefined;
  if (peer.ipBlock !== undefined && hasSelector) {
    return 'ipBlock cannot be combined with namespaceSelector or podSelector';
  }
  if (peer.ipBlock !== undefined) {
    const { cidr, except } = peer.ipBlock;
    return { ipBlock: { cidr, ...(except && except.length > 0 && { except: [...except] }) } };
  }
  if (!hasSelector) return 'a peer needs namespaceSelector, podSelector or ipBlock';
  return {
    ...(peer.namespaceSelector && { namespaceSelector: selector(peer.namespaceSelector) }),
    ...(peer.podSelector && { podSelector: selector(peer.podSelector) }),
  };
}

function selector(written: { matchLabels?: Record<string, string> }) {
  return written.matchLabels ? { matchLabels: { ...written.matchLabels } } : {};
}
