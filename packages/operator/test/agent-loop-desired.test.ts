import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentRuntime, AgentRuntimeSpec } from '@paddock/kube';
import { validateUpstream } from '@paddock/testing';
import {
  AGENT_CONTAINER,
  AGENT_DATA_MOUNT_PATH,
  AGENT_DATA_VOLUME,
  SERVICE_ACCOUNT_DIR,
  desiredAgentAccess,
  desiredAgentNetworkPolicy,
  desiredService,
  desiredStatefulSet,
  effectiveReplicas,
  type StatefulSetObject,
} from '../src/agentruntime/index.js';
import { withClaimsOf } from '../src/controllers/agent-runtime/owned-objects.js';

/** The agent loop's part of an agent's objects, present only with a model provider. */

const PROVIDER = {
  type: 'openai' as const,
  baseURL: 'http://models.example:11434/v1',
  apiKeySecretRef: { name: 'model-key' },
};

function agent(spec: Partial<AgentRuntimeSpec> = {}): AgentRuntime {
  return {
    apiVersion: 'paddock.dev/v1alpha1',
    kind: 'AgentRuntime',
    metadata: { name: 'coder', namespace: 'team-a', uid: 'uid-coder', generation: 2 },
    spec: { promptPackRef: { name: 'sample-prompts' }, model: 'gpt-4.1-mini', ...spec },
  };
}

function statefulSet(spec: Partial<AgentRuntimeSpec>): StatefulSetObject {
  const made = desiredStatefulSet({ agent: agent(spec), workspace: { name: 'team-a' } });
  validateUpstream(made);
  return made;
}

const envOf = (set: StatefulSetObject, container: string) =>
  Object.fromEntries(
    (set.spec.template.spec.containers.find((c) => c.name === container)?.env ?? []).map((e) => [
      e.name,
      e.value ?? e.valueFrom,
    ]),
  );

describe('an agent without a provider', () => {
  const set = statefulSet({});
  it('runs the sandbox alone, with no ServiceAccount and one claim', () => {
    assert.deepEqual(
      set.spec.template.spec.containers.map((c) => c.name),
      ['sandbox'],
    );
    assert.equal(set.spec.template.spec.serviceAccountName, undefined);
    assert.deepEqual(
      set.spec.volumeClaimTemplates.map((t) => t.metadata.name),
      ['workspace'],
    );
  });
  it('opens no runs port in its Service or NetworkPolicy', () => {
    const service = desiredService(agent(), 'team-a');
    assert.equal(
      service.spec.ports.some((p) => p.name === 'runs'),
      false,
    );
  });
});

describe('an agent with a provider', () => {
  const set = statefulSet({ provider: PROVIDER });
  const pod = set.spec.template.spec;
  const loop = pod.containers.find((c) => c.name === AGENT_CONTAINER)!;

  it('runs paddock-agent beside the sandbox, from the same image, on the runs port', () => {
    assert.deepEqual(
      pod.containers.map((c) => c.name),
      ['sandbox', 'agent'],
    );
    assert.equal(loop.image, pod.containers[0].image);
    assert.deepEqual(loop.command, ['paddock-agent']);
    assert.deepEqual(loop.args, ['--listen', '0.0.0.0:7072']);
    assert.deepEqual(loop.ports, [{ name: 'runs', containerPort: 7072, protocol: 'TCP' }]);
    assert.equal(loop.readinessProbe.httpGet.port, 'runs');
    assert.deepEqual(loop.securityContext, pod.containers[0].securityContext);
  });

  it('gives the token to the agent container only, through a projected volume', () => {
    assert.equal(pod.serviceAccountName, 'coder-agent');
    assert.equal(pod.automountServiceAccountToken, false);
    const mounts = (name: string) =>
      pod.containers.find((c) => c.name === name)!.volumeMounts.map((m) => m.mountPath);
    assert.ok(mounts('agent').includes(SERVICE_ACCOUNT_DIR));
    assert.ok(!mounts('sandbox').includes(SERVICE_ACCOUNT_DIR));
    assert.ok(mounts('agent').includes(AGENT_DATA_MOUNT_PATH));
    assert.ok(!mounts('sandbox').includes(AGENT_DATA_MOUNT_PATH));
    const projected = pod.volumes.find((v) => 'projected' in v);
    assert.ok(projected && 'projected' in projected);
    assert.deepEqual(
      projected.projected.sources.map((s) => Object.keys(s)[0]),
      ['serviceAccountToken', 'configMap', 'downwardAPI'],
    );
  });

  it('keeps the runs on a claim of their own', () => {
    assert.deepEqual(
      set.spec.volumeClaimTemplates.map((t) => t.metadata.name),
      ['workspace', AGENT_DATA_VOLUME],
    );
  });

  it('configures the agent: its identity, provider, key, sandbox, proof; never spec.env', () => {
    const env = envOf(statefulSet({ provider: PROVIDER, env: { FOO: 'bar' } }), 'agent');
    assert.equal(env['SVC_AGENT_NAME'], 'coder');
    assert.equal(env['SVC_AGENT_NAMESPACE'], 'team-a');
    assert.equal(env['SVC_AGENT_PROVIDER'], 'openai');
    assert.equal(env['SVC_AGENT_PROVIDER_BASE_URL'], PROVIDER.baseURL);
    assert.deepEqual(env['SVC_AGENT_PROVIDER_API_KEY'], {
      secretKeyRef: { name: 'model-key', key: 'apiKey' },
    });
    assert.equal(env['SVC_AGENT_SANDBOX_MCP_URL'], 'http://$(PADDOCK_POD_IP):7070/mcp');
    assert.equal(env['SVC_AGENT_DATA_DIR'], AGENT_DATA_MOUNT_PATH);
    assert.equal(env['SVC_AGENT_SERVICE_ACCOUNT_DIR'], SERVICE_ACCOUNT_DIR);
    assert.match(env['SVC_API_PROOF_AUDIENCE'] as string, /^\$\(PADDOCK_POD_NAME\)\.coder\./);
    assert.equal(env['FOO'], undefined);
  });

  it('opens the runs port to the dashboard in its Service and NetworkPolicy', () => {
    const withProvider = agent({ provider: PROVIDER });
    const service = desiredService(withProvider, 'team-a');
    assert.deepEqual(
      service.spec.ports.find((p) => p.name === 'runs'),
      { name: 'runs', port: 7072, targetPort: 'runs', protocol: 'TCP' },
    );
    const policy = desiredAgentNetworkPolicy({
      agent: withProvider,
      workspace: {
        apiVersion: 'paddock.dev/v1alpha1',
        kind: 'Workspace',
        metadata: { name: 'team-a' },
        spec: { displayName: 'Team A', namespace: { name: 'team-a' } },
      },
    });
    const ports = policy.spec.ingress[0]?.ports?.map((p) => p.port);
    assert.deepEqual(ports, [7070, 7071, 7072]);
  });
});

describe("the agent loop's identity", () => {
  const access = desiredAgentAccess(agent({ provider: PROVIDER }), 'team-a');
  it('is a ServiceAccount, Role and RoleBinding named after the agent, owned by it', () => {
    for (const object of [access.serviceAccount, access.role, access.roleBinding]) {
      validateUpstream(object);
      assert.equal(object.metadata.name, 'coder-agent');
      assert.equal(object.metadata.namespace, 'team-a');
      assert.equal(object.metadata.ownerReferences[0]?.uid, 'uid-coder');
    }
    assert.equal(access.serviceAccount.automountServiceAccountToken, false);
    assert.deepEqual(access.roleBinding.subjects, [
      { kind: 'ServiceAccount', name: 'coder-agent', namespace: 'team-a' },
    ]);
  });
  it('may patch only this agent’s status, and read only its agent and pack', () => {
    const rules = access.role.rules;
    const status = rules.find((r) => r.resources.includes('agentruntimes/status'));
    assert.deepEqual(status?.resourceNames, ['coder']);
    assert.deepEqual(status?.verbs, ['get', 'patch']);
    assert.deepEqual(rules.find((r) => r.resources.includes('agentruntimes'))?.resourceNames, [
      'coder',
    ]);
    assert.deepEqual(rules.find((r) => r.resources.includes('promptpacks'))?.resourceNames, [
      'sample-prompts',
    ]);
    assert.ok(rules.every((r) => !r.verbs.some((v) => ['create', 'update', 'delete'].includes(v))));
  });
});

describe('a StatefulSet made before the agent named a provider', () => {
  it('keeps its one claim and gives the agent an emptyDir instead, saying which is missing', () => {
    const before = statefulSet({});
    const wanted = statefulSet({ provider: PROVIDER });
    const { desired, missing } = withClaimsOf(before, wanted);
    assert.deepEqual(missing, [AGENT_DATA_VOLUME]);
    validateUpstream(desired);
    assert.deepEqual(
      desired.spec.volumeClaimTemplates.map((t) => t.metadata.name),
      ['workspace'],
    );
    const volume = desired.spec.template.spec.volumes.find((v) => v.name === AGENT_DATA_VOLUME);
    assert.ok(volume && 'emptyDir' in volume);
  });
  it('is unchanged when it has every claim', () => {
    const wanted = statefulSet({ provider: PROVIDER });
    assert.deepEqual(withClaimsOf(wanted, wanted), { desired: wanted, missing: [] });
    assert.deepEqual(withClaimsOf(undefined, wanted), { desired: wanted, missing: [] });
  });
});

describe('the budget under block', () => {
  it('keeps the replicas and blocks the runs, with the reason', () => {
    const effective = effectiveReplicas(agent({ replicas: 2 }), {
      name: 'team-a',
      block: { reason: 'BudgetExceeded', message: 'Budget exceeded: over.' },
    });
    assert.equal(effective.replicas, 2);
    const [, paused, blocked] = effective.conditions;
    assert.equal(paused.status, 'False');
    assert.equal(blocked.type, 'RunsBlocked');
    assert.equal(blocked.status, 'True');
    assert.equal(blocked.message, 'Budget exceeded: over.');
  });
  it('blocks nothing within the budget', () => {
    const [, , blocked] = effectiveReplicas(agent(), { name: 'team-a' }).conditions;
    assert.equal(blocked.status, 'False');
  });
});
