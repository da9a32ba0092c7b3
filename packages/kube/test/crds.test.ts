import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { Ajv2019, type ErrorObject } from 'ajv/dist/2019.js';
import formats from 'ajv-formats';
import { parse } from 'yaml';
import {
  CIDR_PATTERN,
  crdFiles,
  customResourceDefinitions,
  DEFAULT_AGENT_IMAGE,
  DEFAULT_AGENT_STORAGE_SIZE,
  DURATION_PATTERN,
  GENERATE_COMMAND,
  GROUP,
  KINDS,
  KUSTOMIZATION_FILE,
  QUANTITY_PATTERN,
  USD_PATTERN,
  VERSION,
  type SchemaNode,
} from '@paddock/kube';

const root = resolve(import.meta.dirname, '..', '..', '..');
const crdFolder = join(root, 'deploy', 'crds');
const examples = join(root, 'examples', 'resources');

type Json = Record<string, unknown>;

function schemaOf(kind: string): SchemaNode {
  const crd = customResourceDefinitions().find((c) => c.spec.names.kind === kind);
  assert.ok(crd, `no CRD for ${kind}`);
  const version = crd.spec.versions[0];
  assert.ok(version);
  return version.schema.openAPIV3Schema;
}

function readYaml(file: string): Json {
  return parse(readFileSync(file, 'utf8')) as Json;
}

function yamlFiles(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.yaml'))
    .sort();
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Validation as the API server does it before CEL: OpenAPI's subset of JSON Schema, with the
// formats Kubernetes checks and its x-kubernetes-* extensions known (they carry no JSON Schema
// meaning of their own). strictTypes is off because int-or-string quantities put a string pattern
// on a node that may hold an integer, as Kubernetes' own schemas do.
function createAjv(options: { useDefaults?: boolean } = {}): Ajv2019 {
  const ajv = new Ajv2019({ allErrors: true, strict: true, strictTypes: false, ...options });
  formats.default(ajv);
  for (const keyword of [
    'x-kubernetes-int-or-string',
    'x-kubernetes-preserve-unknown-fields',
    'x-kubernetes-list-type',
    'x-kubernetes-list-map-keys',
    'x-kubernetes-validations',
  ]) {
    ajv.addKeyword(keyword);
  }
  return ajv;
}

const ajv = createAjv();
function schemaErrors(object: Json): ErrorObject[] {
  const validate = ajv.getSchema(String(object.kind)) ?? compileKind(String(object.kind));
  return validate(object) ? [] : (validate.errors ?? []);
}
function compileKind(kind: string) {
  ajv.addSchema(schemaOf(kind), kind);
  const validate = ajv.getSchema(kind);
  assert.ok(validate);
  return validate;
}

/** Ways a schema breaks the structural rules of apiextensions.k8s.io/v1, with their paths. */
function structuralProblems(node: SchemaNode, path = ''): string[] {
  const raw = node as Json;
  const problems: string[] = [];
  if ('$ref' in raw) problems.push(`${path}: $ref`);
  if (raw.additionalProperties === false) problems.push(`${path}: additionalProperties: false`);
  if (node.properties && node.additionalProperties) {
    problems.push(`${path}: both properties and additionalProperties`);
  }
  const intOrString = node['x-kubernetes-int-or-string'] === true;
  if (!node.type && !intOrString && !node['x-kubernetes-preserve-unknown-fields']) {
    problems.push(`${path}: no type`);
  }
  if (node.anyOf) {
    // The one anyOf Kubernetes allows next to x-kubernetes-int-or-string.
    const types = node.anyOf.map((branch) => JSON.stringify(branch));
    if (!intOrString || types.join() !== '{"type":"integer"},{"type":"string"}') {
      problems.push(`${path}: anyOf other than int-or-string`);
    }
  }
  if (node.type === 'array' && !node.items) problems.push(`${path}: array without items`);
  if (node['x-kubernetes-list-type'] === 'map') {
    for (const key of node['x-kubernetes-list-map-keys'] ?? []) {
      if (!node.items?.required?.includes(key))
        problems.push(`${path}: list-map key ${key} optional`);
    }
  }
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    problems.push(...structuralProblems(child, `${path}.${name}`));
  }
  if (node.additionalProperties) {
    problems.push(...structuralProblems(node.additionalProperties, `${path}.*`));
  }
  if (node.items) problems.push(...structuralProblems(node.items, `${path}[]`));
  return problems;
}

/** Fields the API server would prune because the schema does not know them. */
function unknownFields(node: SchemaNode, value: unknown, path = ''): string[] {
  if (node['x-kubernetes-preserve-unknown-fields']) return [];
  if (Array.isArray(value) && node.items) {
    const items = node.items;
    return value.flatMap((item, i) => unknownFields(items, item, `${path}[${i}]`));
  }
  if (!isObject(value)) return [];
  if (node.additionalProperties) {
    const values = node.additionalProperties;
    return Object.entries(value).flatMap(([k, v]) => unknownFields(values, v, `${path}.${k}`));
  }
  // The API server keeps metadata itself, whatever the schema says of it.
  if (path === '.metadata') return [];
  return Object.entries(value).flatMap(([name, child]) => {
    const childSchema = node.properties?.[name];
    return childSchema ? unknownFields(childSchema, child, `${path}.${name}`) : [`${path}.${name}`];
  });
}

// Each CEL rule of the CRDs, written again in TypeScript, so the samples can show which rule
// rejects them. The CEL itself is evaluated by the API server; the test below fails when a rule
// is added without its counterpart here.
const has = (self: Json, field: string) => self[field] !== undefined;
const celRules: Record<string, (self: Json) => boolean> = {
  "self.all(k, !k.startsWith('paddock.dev/'))": (self) =>
    Object.keys(self).every((k) => !k.startsWith('paddock.dev/')),
  'has(self.url) || has(self.serviceRef)': (self) => has(self, 'url') || has(self, 'serviceRef'),
  "self.transport != 'sse' || has(self.endpoint)": (self) =>
    self.transport !== 'sse' || has(self, 'endpoint'),
  "self.transport != 'stdio' || has(self.command)": (self) =>
    self.transport !== 'stdio' || has(self, 'command'),
  "!(self.type in ['http', 'grpc']) || has(self.tool)": (self) =>
    !['http', 'grpc'].includes(String(self.type)) || has(self, 'tool'),
  "!(self.type in ['http', 'grpc']) || has(self.endpoint) || has(self.selector)": (self) =>
    !['http', 'grpc'].includes(String(self.type)) || has(self, 'endpoint') || has(self, 'selector'),
  "self.type != 'mcp' || has(self.mcpConfig)": (self) =>
    self.type !== 'mcp' || has(self, 'mcpConfig'),
  "self.type != 'openapi' || has(self.openAPIConfig)": (self) =>
    self.type !== 'openapi' || has(self, 'openAPIConfig'),
  "!(self.containerPort in [7070, 7071, 7072]) && !(self.name in ['mcp', 'api', 'runs'])": (self) =>
    ![7070, 7071, 7072].includes(Number(self.containerPort)) &&
    !['mcp', 'api', 'runs'].includes(String(self.name)),
  'self.handlers.all(h, self.handlers.exists_one(x, x.name == h.name))': (self) => {
    const names = (self.handlers as Json[]).map((h) => h.name);
    return names.every((name) => names.filter((n) => n === name).length === 1);
  },
};

interface RuleResult {
  path: string;
  rule: string;
  holds: boolean;
}

/** Every CEL rule that applies to a value, with whether its counterpart above holds. */
function ruleResults(node: SchemaNode, value: unknown, path = ''): RuleResult[] {
  if (value === undefined) return [];
  const results: RuleResult[] = (node['x-kubernetes-validations'] ?? []).map(({ rule }) => {
    const check = celRules[rule];
    assert.ok(check, `no counterpart for the CEL rule ${rule}`);
    return { path, rule, holds: check(value as Json) };
  });
  if (Array.isArray(value) && node.items) {
    const items = node.items;
    value.forEach((item, i) => results.push(...ruleResults(items, item, `${path}/${i}`)));
  } else if (isObject(value)) {
    for (const [name, child] of Object.entries(value)) {
      const childSchema = node.properties?.[name] ?? node.additionalProperties;
      if (childSchema) results.push(...ruleResults(childSchema, child, `${path}/${name}`));
    }
  }
  return results;
}

function allRules(node: SchemaNode): { rule: string; message: string }[] {
  return [
    ...(node['x-kubernetes-validations'] ?? []),
    ...Object.values(node.properties ?? {}).flatMap(allRules),
    ...(node.additionalProperties ? allRules(node.additionalProperties) : []),
    ...(node.items ? allRules(node.items) : []),
  ];
}

/** The schema node at a path such as `spec.handlers[].httpConfig.method`. */
function nodeAt(schema: SchemaNode, path: string): SchemaNode {
  let node = schema;
  for (const step of path.split('.')) {
    const name = step.replace(/\[\]$/, '');
    const child = node.properties?.[name];
    assert.ok(child, `${path}: no property ${name}`);
    node = step.endsWith('[]')
      ? (child.items ?? assert.fail(`${path}: ${name} has no items`))
      : child;
  }
  return node;
}

describe('the committed CRD files', () => {
  it(`equal what generation produces now, else they say to run ${GENERATE_COMMAND}`, () => {
    const files = crdFiles();
    for (const file of files) {
      const path = join(crdFolder, file.name);
      const committed = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
      assert.ok(
        committed !== undefined,
        `deploy/crds/${file.name} is missing: run ${GENERATE_COMMAND}`,
      );
      assert.ok(
        committed === file.content,
        `deploy/crds/${file.name} is stale: run ${GENERATE_COMMAND}`,
      );
    }
    assert.deepEqual(
      readdirSync(crdFolder).sort(),
      files.map((file) => file.name).sort(),
      `deploy/crds holds files generation does not make: run ${GENERATE_COMMAND}`,
    );
  });

  it('read back as the CustomResourceDefinitions, one per kind, listed by the kustomization', () => {
    const crds = customResourceDefinitions();
    for (const crd of crds) {
      assert.deepEqual(readYaml(join(crdFolder, `${crd.metadata.name}.yaml`)), crd);
    }
    assert.deepEqual(readYaml(join(crdFolder, KUSTOMIZATION_FILE)).resources, [
      'workspaces.paddock.dev.yaml',
      'toolregistries.paddock.dev.yaml',
      'agentruntimes.paddock.dev.yaml',
      'promptpacks.paddock.dev.yaml',
    ]);
  });
});

describe('the CustomResourceDefinitions', () => {
  it('serve and store every kind at paddock.dev/v1alpha1 with its scope, names and columns', () => {
    const summary = customResourceDefinitions().map((crd) => ({
      name: crd.metadata.name,
      group: crd.spec.group,
      scope: crd.spec.scope,
      names: crd.spec.names,
      versions: crd.spec.versions.map((v) => ({
        name: v.name,
        served: v.served,
        storage: v.storage,
        subresources: v.subresources,
        columns: v.additionalPrinterColumns.map((c) => `${c.name}=${c.jsonPath}`),
      })),
    }));
    const names = (kind: string, plural: string, shortName: string) => ({
      kind,
      listKind: `${kind}List`,
      plural,
      singular: kind.toLowerCase(),
      shortNames: [shortName],
      categories: ['paddock'],
    });
    const version = (columns: string[], subresources: object = { status: {} }) => [
      { name: 'v1alpha1', served: true, storage: true, subresources, columns },
    ];
    const age = 'Age=.metadata.creationTimestamp';
    assert.deepEqual(summary, [
      {
        name: 'workspaces.paddock.dev',
        group: 'paddock.dev',
        scope: 'Cluster',
        names: names('Workspace', 'workspaces', 'ws'),
        versions: version([
          'Display Name=.spec.displayName',
          'Environment=.spec.environment',
          'Namespace=.spec.namespace.name',
          'Phase=.status.phase',
          age,
        ]),
      },
      {
        name: 'toolregistries.paddock.dev',
        group: 'paddock.dev',
        scope: 'Namespaced',
        names: names('ToolRegistry', 'toolregistries', 'tr'),
        versions: version(['Phase=.status.phase', 'Tools=.status.availableToolsCount', age]),
      },
      {
        name: 'agentruntimes.paddock.dev',
        group: 'paddock.dev',
        scope: 'Namespaced',
        names: names('AgentRuntime', 'agentruntimes', 'ar'),
        versions: version(
          [
            'Replicas=.spec.replicas',
            'Ready=.status.readyReplicas',
            'Phase=.status.phase',
            'Model=.spec.model',
            age,
          ],
          {
            status: {},
            scale: {
              specReplicasPath: '.spec.replicas',
              statusReplicasPath: '.status.replicas',
              labelSelectorPath: '.status.selector',
            },
          },
        ),
      },
      {
        name: 'promptpacks.paddock.dev',
        group: 'paddock.dev',
        scope: 'Namespaced',
        names: names('PromptPack', 'promptpacks', 'pp'),
        versions: version([age]),
      },
    ]);
    assert.deepEqual(
      KINDS.map((k) => `${k.apiVersion} ${k.kind} ${k.plural} ${k.scope} ${k.namespaced}`),
      [
        `${GROUP}/${VERSION} Workspace workspaces Cluster false`,
        `${GROUP}/${VERSION} ToolRegistry toolregistries Namespaced true`,
        `${GROUP}/${VERSION} AgentRuntime agentruntimes Namespaced true`,
        `${GROUP}/${VERSION} PromptPack promptpacks Namespaced true`,
      ],
    );
  });

  it('have structural schemas', () => {
    for (const kind of KINDS) {
      assert.deepEqual(structuralProblems(schemaOf(kind.kind)), [], kind.kind);
    }
  });

  it('would be caught by the structural check if they were not', () => {
    const broken = {
      type: 'object',
      properties: { a: {}, b: { $ref: '#/x' }, c: { type: 'array' } },
      additionalProperties: false,
    } as unknown as SchemaNode;
    assert.deepEqual(structuralProblems(broken), [
      ': additionalProperties: false',
      '.a: no type',
      '.b: $ref',
      '.b: no type',
      '.c: array without items',
    ]);
  });

  it('give every CEL rule a message and a counterpart in this test', () => {
    for (const kind of KINDS) {
      for (const { rule, message } of allRules(schemaOf(kind.kind))) {
        assert.ok(message.length > 0, `${kind.kind}: ${rule} has no message`);
        assert.ok(celRules[rule], `${kind.kind}: no counterpart for ${rule}`);
      }
    }
  });

  it('carry the documented defaults at their paths', () => {
    const defaults: [kind: string, path: string, value: unknown][] = [
      ['Workspace', 'spec.environment', 'development'],
      ['Workspace', 'spec.namespace.create', false],
      ['Workspace', 'spec.anonymousAccess.role', 'viewer'],
      ['Workspace', 'spec.networkPolicy.isolate', false],
      ['Workspace', 'spec.networkPolicy.allowExternalAPIs', true],
      ['Workspace', 'spec.networkPolicy.allowSharedNamespaces', true],
      ['Workspace', 'spec.networkPolicy.allowPrivateNetworks', false],
      ['Workspace', 'spec.networkPolicy.allowFrom[].ports[].protocol', 'TCP'],
      ['Workspace', 'spec.networkPolicy.allowTo[].ports[].protocol', 'TCP'],
      ['Workspace', 'spec.costControls.budgetExceededAction', 'warn'],
      ['ToolRegistry', 'spec.handlers[].httpConfig.method', 'POST'],
      ['ToolRegistry', 'spec.handlers[].httpConfig.contentType', 'application/json'],
      ['ToolRegistry', 'spec.handlers[].grpcConfig.tls', false],
      ['ToolRegistry', 'spec.handlers[].grpcConfig.tlsInsecureSkipVerify', false],
      ['AgentRuntime', 'spec.replicas', 1],
      ['AgentRuntime', 'spec.image', DEFAULT_AGENT_IMAGE],
      ['AgentRuntime', 'spec.storage', {}],
      ['AgentRuntime', 'spec.storage.size', DEFAULT_AGENT_STORAGE_SIZE],
      ['AgentRuntime', 'spec.sandbox', {}],
      ['AgentRuntime', 'spec.sandbox.exec', true],
      ['AgentRuntime', 'spec.sandbox.portForward', true],
      ['AgentRuntime', 'spec.sandbox.ssh', true],
      ['AgentRuntime', 'spec.ports[].protocol', 'TCP'],
    ];
    for (const [kind, path, value] of defaults) {
      assert.deepEqual(nodeAt(schemaOf(kind), path).default, value, `${kind} ${path}`);
    }
  });

  it('fill in those defaults the way the API server does, inside the objects a user wrote', () => {
    const withDefaults = createAjv({ useDefaults: true });
    const fill = (object: Json) => {
      const validate = withDefaults.compile(schemaOf(String(object.kind)) as Json);
      assert.ok(validate(object), JSON.stringify(validate.errors));
      return object.spec;
    };
    const metadata = { name: 'minimal', namespace: 'paddock-sample' };
    assert.deepEqual(
      fill({
        kind: 'Workspace',
        metadata,
        spec: {
          displayName: 'Minimal',
          namespace: { name: 'paddock-minimal' },
          anonymousAccess: { enabled: true },
          networkPolicy: { allowTo: [{ ports: [{ port: 443 }] }] },
          costControls: {},
        },
      }),
      {
        displayName: 'Minimal',
        environment: 'development',
        namespace: { name: 'paddock-minimal', create: false },
        anonymousAccess: { enabled: true, role: 'viewer' },
        networkPolicy: {
          isolate: false,
          allowExternalAPIs: true,
          allowSharedNamespaces: true,
          allowPrivateNetworks: false,
          allowTo: [{ ports: [{ port: 443, protocol: 'TCP' }] }],
        },
        costControls: { budgetExceededAction: 'warn' },
      },
    );
    const tool = { name: 'echo', description: 'Echoes', inputSchema: { type: 'object' } };
    assert.deepEqual(
      fill({
        kind: 'ToolRegistry',
        metadata,
        spec: {
          handlers: [
            { name: 'a', type: 'http', endpoint: { url: 'http://a' }, tool, httpConfig: {} },
            { name: 'b', type: 'grpc', endpoint: { url: 'b:9090' }, tool, grpcConfig: {} },
          ],
        },
      }),
      {
        handlers: [
          {
            name: 'a',
            type: 'http',
            endpoint: { url: 'http://a' },
            tool,
            httpConfig: { method: 'POST', contentType: 'application/json' },
          },
          {
            name: 'b',
            type: 'grpc',
            endpoint: { url: 'b:9090' },
            tool,
            grpcConfig: { tls: false, tlsInsecureSkipVerify: false },
          },
        ],
      },
    );
    assert.deepEqual(
      fill({ kind: 'AgentRuntime', metadata, spec: { promptPackRef: { name: 'p' } } }),
      {
        promptPackRef: { name: 'p' },
        replicas: 1,
        image: DEFAULT_AGENT_IMAGE,
        storage: { size: DEFAULT_AGENT_STORAGE_SIZE },
        sandbox: { exec: true, portForward: true, ssh: true },
      },
    );
    // Written in part, the rest is filled in around what the user chose.
    assert.deepEqual(
      fill({
        kind: 'AgentRuntime',
        metadata,
        spec: {
          promptPackRef: { name: 'p' },
          storage: { storageClassName: 'fast' },
          sandbox: { ssh: false },
          ports: [{ name: 'web', containerPort: 3000 }],
        },
      }),
      {
        promptPackRef: { name: 'p' },
        replicas: 1,
        image: DEFAULT_AGENT_IMAGE,
        storage: { size: DEFAULT_AGENT_STORAGE_SIZE, storageClassName: 'fast' },
        sandbox: { exec: true, portForward: true, ssh: false },
        ports: [{ name: 'web', containerPort: 3000, protocol: 'TCP' }],
      },
    );
  });

  it('check CIDRs, dollars, durations and quantities with patterns that mean what they say', () => {
    const cases: [pattern: string, accepted: string[], rejected: string[]][] = [
      [
        CIDR_PATTERN,
        ['10.0.0.0/8', '0.0.0.0/0', '192.168.1.7/32', 'fd00::/8', '::/0', '2001:db8::1/128'],
        ['10.0.0.0/33', '256.0.0.0/8', '10.0.0.0', '10.0.0/8', 'fd00::/129', '1::2::3/64', 'x/8'],
      ],
      [USD_PATTERN, ['25', '25.5', '25.50', '0'], ['25.555', '-1', '1,00', '$5', '.5']],
      [DURATION_PATTERN, ['30s', '500ms', '1.5m', '2h'], ['30', '1d', 's', '-1s', '1.s']],
      [QUANTITY_PATTERN, ['500m', '2', '4Gi', '1.5', '1e3'], ['4GB', 'abc', '', '1 Gi']],
    ];
    for (const [pattern, accepted, rejected] of cases) {
      const regex = new RegExp(pattern, 'u');
      for (const value of accepted) assert.ok(regex.test(value), `${pattern} rejects ${value}`);
      for (const value of rejected) assert.ok(!regex.test(value), `${pattern} accepts ${value}`);
    }
  });
});

describe('the samples in examples/resources', () => {
  const samples = yamlFiles(examples);

  it('cover every kind once', () => {
    assert.deepEqual(
      samples.map((name) => readYaml(join(examples, name)).kind).sort(),
      KINDS.map((k) => k.kind).sort(),
    );
  });

  for (const name of samples) {
    it(`${name} is accepted: schema, CEL rules, and no field the API server would drop`, () => {
      const object = readYaml(join(examples, name));
      assert.deepEqual(schemaErrors(object), []);
      const schema = schemaOf(String(object.kind));
      assert.deepEqual(
        ruleResults(schema, object).filter((r) => !r.holds),
        [],
      );
      assert.deepEqual(unknownFields(schema, object), []);
    });
  }
});

describe('the samples in examples/resources/invalid', () => {
  const invalid = join(examples, 'invalid');
  // What rejects each one: a JSON Schema keyword at a path, or a CEL rule on the schema node at a path.
  const rejections: Record<string, { keyword: string; at: string } | { rule: string; at: string }> =
    {
      'unknown-role.yaml': { keyword: 'enum', at: '/spec/roleBindings/0/role' },
      'bad-cidr.yaml': {
        keyword: 'pattern',
        at: '/spec/networkPolicy/allowTo/0/peers/0/ipBlock/cidr',
      },
      'http-handler-without-tool.yaml': {
        rule: "!(self.type in ['http', 'grpc']) || has(self.tool)",
        at: '/spec/handlers/0',
      },
      'duplicate-handler-names.yaml': {
        rule: 'self.handlers.all(h, self.handlers.exists_one(x, x.name == h.name))',
        at: '/spec',
      },
      'reserved-label.yaml': {
        rule: "self.all(k, !k.startsWith('paddock.dev/'))",
        at: '/spec/namespace/labels',
      },
      'agent-port-of-the-sandbox.yaml': {
        rule: "!(self.containerPort in [7070, 7071, 7072]) && !(self.name in ['mcp', 'api', 'runs'])",
        at: '/spec/ports/1',
      },
      'agent-storage-size.yaml': { keyword: 'pattern', at: '/spec/storage/size' },
      'sse-mcp-without-endpoint.yaml': {
        rule: "self.transport != 'sse' || has(self.endpoint)",
        at: '/spec/handlers/0/mcpConfig',
      },
    };

  it('are each listed here with what rejects them', () => {
    assert.deepEqual(yamlFiles(invalid), Object.keys(rejections).sort());
  });

  for (const [name, rejection] of Object.entries(rejections)) {
    it(`${name} is rejected by ${'rule' in rejection ? 'the CEL rule' : rejection.keyword} at ${rejection.at}`, () => {
      const object = readYaml(join(invalid, name));
      const schema = schemaOf(String(object.kind));
      const errors = schemaErrors(object).map((e) => `${e.keyword} at ${e.instancePath}`);
      const broken = ruleResults(schema, object)
        .filter((r) => !r.holds)
        .map((r) => `${r.rule} at ${r.path}`);
      if ('rule' in rejection) {
        // The schema alone accepts it: only the rule, which the API server evaluates, turns it away.
        assert.deepEqual(errors, []);
        assert.deepEqual(broken, [`${rejection.rule} at ${rejection.at}`]);
      } else {
        assert.deepEqual(errors, [`${rejection.keyword} at ${rejection.at}`]);
        assert.deepEqual(broken, []);
      }
    });
  }
});
