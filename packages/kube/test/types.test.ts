import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type {
  AgentRuntime,
  Condition,
  PromptPack,
  ToolHandler,
  ToolRegistry,
  Workspace,
  WorkspaceRole,
  WorkspaceSpec,
  WorkspaceStatus,
} from '@paddock/kube';

// These checks run in the type-checker (`npm run typecheck` covers the tests): the line after each
// expected-error directive must fail to compile, or the unused directive is itself an error.
type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

type _Role = Expect<Equal<WorkspaceRole, 'owner' | 'editor' | 'viewer'>>;
type _Environment = Expect<
  Equal<WorkspaceSpec['environment'], 'development' | 'staging' | 'production' | undefined>
>;
type _HandlerType = Expect<Equal<ToolHandler['type'], 'http' | 'grpc' | 'mcp' | 'openapi'>>;
type _ConditionStatus = Expect<Equal<Condition['status'], 'True' | 'False' | 'Unknown'>>;
type _Phase = Expect<
  Equal<WorkspaceStatus['phase'], 'Pending' | 'Ready' | 'Suspended' | 'Error' | undefined>
>;
type _Tags = Expect<Equal<WorkspaceSpec['defaultTags'], { [key: string]: string } | undefined>>;

describe('the types derived from the schemas', () => {
  it('accept what the schemas accept and reject misspelt fields, unknown values and missing requirements', () => {
    const workspace: Workspace = {
      apiVersion: 'paddock.dev/v1alpha1',
      kind: 'Workspace',
      metadata: { name: 'sample' },
      spec: {
        displayName: 'Sample',
        namespace: { name: 'paddock-sample' },
        roleBindings: [{ groups: ['team'], role: 'editor' }],
        quotas: { compute: { requests: { cpu: 2, memory: '4Gi' } } },
      },
    };
    const registry: ToolRegistry = {
      apiVersion: 'paddock.dev/v1alpha1',
      kind: 'ToolRegistry',
      metadata: { name: 'tools', namespace: 'paddock-sample' },
      spec: {
        handlers: [
          {
            name: 'echo',
            type: 'http',
            endpoint: { url: 'http://echo' },
            // JSON Schemas are kept as written: any fields.
            tool: { name: 'echo', description: 'Echoes', inputSchema: { type: 'object', x: [1] } },
          },
        ],
      },
      status: {
        phase: 'Ready',
        discoveredTools: [{ handlerName: 'echo', name: 'echo', status: 'Available' }],
      },
    };
    const agent: AgentRuntime = {
      apiVersion: 'paddock.dev/v1alpha1',
      kind: 'AgentRuntime',
      metadata: { name: 'agent', namespace: 'paddock-sample' },
      // replicas and image have defaults, so they may be left out.
      spec: { promptPackRef: { name: 'prompts' } },
    };
    const pack: PromptPack = {
      apiVersion: 'paddock.dev/v1alpha1',
      kind: 'PromptPack',
      metadata: { name: 'prompts', namespace: 'paddock-sample' },
      spec: { systemPrompt: 'Be careful.', prompts: [{ name: 'review', content: 'Review it.' }] },
    };

    // @ts-expect-error admin is not a workspace role
    const unknownRole: WorkspaceSpec['roleBindings'] = [{ role: 'admin' }];
    // @ts-expect-error displayName is required
    const noDisplayName: WorkspaceSpec = { namespace: { name: 'n' } };
    // @ts-expect-error the API server would drop a misspelt field, so it does not type-check
    const misspelt: WorkspaceSpec = { displayName: 'x', namespace: { name: 'n', craete: true } };
    // @ts-expect-error a quantity is a string or a number
    const badQuantity: WorkspaceSpec['quotas'] = { compute: { limits: { cpu: true } } };
    // @ts-expect-error an http tool needs its description and inputSchema
    const partialTool: ToolHandler['tool'] = { name: 'echo' };
    const grown: AgentRuntime['spec'] = {
      promptPackRef: { name: 'prompts' },
      resources: { requests: { cpu: '500m' }, limits: { memory: '2Gi' } },
      storage: { size: '20Gi', storageClassName: 'fast' },
      sandbox: { ssh: false },
      ports: [{ name: 'web', containerPort: 3000, protocol: 'UDP' }],
    };
    // @ts-expect-error an agent's extra port needs its containerPort
    const portless: AgentRuntime['spec']['ports'] = [{ name: 'web' }];
    // @ts-expect-error the sandbox features are exec, portForward and ssh
    const unknownFeature: AgentRuntime['spec']['sandbox'] = { shell: true };

    assert.deepEqual(
      [workspace.kind, registry.kind, agent.kind, pack.kind],
      ['Workspace', 'ToolRegistry', 'AgentRuntime', 'PromptPack'],
    );
    assert.ok(
      [
        unknownRole,
        noDisplayName,
        misspelt,
        badQuantity,
        partialTool,
        portless,
        unknownFeature,
      ].every(Boolean),
    );
    assert.equal(grown.sandbox?.ssh, false);
  });
});
