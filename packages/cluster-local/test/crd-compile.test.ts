import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { customResourceDefinitions } from '@paddock/kube';
import { parse } from 'yaml';
import type { FieldError, KubeObject } from '../src/contracts.js';
import { checkStructural, compileSchema } from '../src/crd/compile.js';

/** A CRD version's schema around `spec`, as generated CRDs write it. */
function resourceSchema(spec: object): object {
  return {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec,
    },
  };
}

function resource(spec: unknown): KubeObject {
  return { apiVersion: 'example.dev/v1', kind: 'Thing', metadata: { name: 'one' }, spec };
}

const required = (field: string): FieldError => ({
  reason: 'FieldValueRequired',
  field,
  message: 'Required value',
});
const invalid = (field: string, message: string): FieldError => ({
  reason: 'FieldValueInvalid',
  field,
  message,
});

describe('defaulting', () => {
  const schema = compileSchema(
    resourceSchema({
      type: 'object',
      properties: {
        mode: { type: 'string', default: 'fast' },
        limits: {
          type: 'object',
          default: {},
          properties: { cpu: { type: 'string', default: '1' }, memory: { type: 'string' } },
        },
        network: {
          type: 'object',
          properties: { isolate: { type: 'boolean', default: false } },
        },
        ports: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              protocol: { type: 'string', default: 'TCP' },
              options: { type: 'object', default: { retries: 1 }, properties: {} },
            },
          },
        },
        handlers: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            properties: { timeout: { type: 'string', default: '30s' } },
          },
        },
        retries: { type: 'integer', default: 3 },
        note: { type: 'string' },
        comment: { type: 'string', nullable: true },
      },
    }),
  );

  const cases: Array<[string, unknown, unknown]> = [
    [
      'fills absent fields, then the defaults of a defaulted object',
      {},
      { mode: 'fast', limits: { cpu: '1' }, retries: 3 },
    ],
    [
      'keeps values that are set',
      { mode: 'slow', limits: { cpu: '4' }, retries: 0 },
      { mode: 'slow', limits: { cpu: '4' }, retries: 0 },
    ],
    [
      'defaults inside a nested object only when it is present',
      { network: {} },
      { mode: 'fast', limits: { cpu: '1' }, retries: 3, network: { isolate: false } },
    ],
    [
      'defaults every list item',
      { ports: [{ name: 'http' }, { name: 'dns', protocol: 'UDP' }] },
      {
        mode: 'fast',
        limits: { cpu: '1' },
        retries: 3,
        ports: [
          { name: 'http', protocol: 'TCP', options: { retries: 1 } },
          { name: 'dns', protocol: 'UDP', options: { retries: 1 } },
        ],
      },
    ],
    [
      'defaults every map value',
      { handlers: { a: {}, b: { timeout: '5s' } } },
      {
        mode: 'fast',
        limits: { cpu: '1' },
        retries: 3,
        handlers: { a: { timeout: '30s' }, b: { timeout: '5s' } },
      },
    ],
    [
      'replaces a null with the default, drops a null nothing allows, keeps a nullable null',
      { mode: null, note: null, comment: null },
      { mode: 'fast', limits: { cpu: '1' }, retries: 3, comment: null },
    ],
  ];
  for (const [name, spec, expected] of cases) {
    it(name, () => {
      const object = resource(spec);
      schema.applyDefaults(object);
      assert.deepEqual(object.spec, expected);
    });
  }

  it('does not create an absent parent and gives each default its own copy', () => {
    const absent = resource(undefined);
    delete absent.spec;
    schema.applyDefaults(absent);
    assert.equal('spec' in absent, false);

    const object = resource({ ports: [{}, {}] });
    schema.applyDefaults(object);
    const ports = (object.spec as { ports: Array<{ options: { retries: number } }> }).ports;
    ports[0]!.options.retries = 9;
    assert.equal(ports[1]!.options.retries, 1);
  });
});

describe('pruning', () => {
  const schema = compileSchema(
    resourceSchema({
      type: 'object',
      properties: {
        name: { type: 'string' },
        handlers: {
          type: 'array',
          items: { type: 'object', properties: { name: { type: 'string' } } },
        },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        env: {
          type: 'object',
          additionalProperties: { type: 'object', properties: { value: { type: 'string' } } },
        },
        inputSchema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        config: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: {
            tls: { type: 'object', properties: { enabled: { type: 'boolean' } } },
          },
        },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: { spec: { type: 'object', properties: { image: { type: 'string' } } } },
        },
      },
    }),
  );

  const cases: Array<[string, unknown, unknown]> = [
    ['drops unknown fields', { name: 'a', typo: 1 }, { name: 'a' }],
    [
      'drops unknown fields of list items and map values',
      { handlers: [{ name: 'h', extra: true }], env: { A: { value: 'x', secret: 'y' } } },
      { handlers: [{ name: 'h' }], env: { A: { value: 'x' } } },
    ],
    [
      'keeps every key of a map',
      { labels: { team: 'a', 'paddock.dev/x': 'b' } },
      { labels: { team: 'a', 'paddock.dev/x': 'b' } },
    ],
    [
      'keeps a preserved subtree whole',
      { inputSchema: { type: 'object', properties: { city: { type: 'string' } } } },
      { inputSchema: { type: 'object', properties: { city: { type: 'string' } } } },
    ],
    [
      'keeps unknown fields of a preserved object but prunes the ones it specifies',
      { config: { anything: [1, { deep: true }], tls: { enabled: true, typo: 1 } } },
      { config: { anything: [1, { deep: true }], tls: { enabled: true } } },
    ],
    [
      "keeps an embedded resource's apiVersion, kind and metadata",
      {
        template: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'p' },
          spec: { image: 'x', typo: 1 },
          status: {},
        },
      },
      {
        template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { image: 'x' } },
      },
    ],
  ];
  for (const [name, spec, expected] of cases) {
    it(name, () => {
      const object = resource(spec);
      schema.prune(object);
      assert.deepEqual(object.spec, expected);
    });
  }

  it("keeps the root's apiVersion, kind and metadata and drops its unknown fields", () => {
    const object: KubeObject = {
      apiVersion: 'example.dev/v1',
      kind: 'Thing',
      metadata: { name: 'one', labels: { a: 'b' } },
      spec: {},
      extra: 1,
    };
    compileSchema({ type: 'object', properties: { spec: { type: 'object' } } }).prune(object);
    assert.deepEqual(object, {
      apiVersion: 'example.dev/v1',
      kind: 'Thing',
      metadata: { name: 'one', labels: { a: 'b' } },
      spec: {},
    });
  });
});

describe('OpenAPI validation', () => {
  const schema = compileSchema(
    resourceSchema({
      type: 'object',
      required: ['handlers'],
      properties: {
        handlers: {
          type: 'array',
          maxItems: 2,
          items: {
            type: 'object',
            required: ['name', 'tool'],
            properties: {
              name: { type: 'string', minLength: 1, maxLength: 5, pattern: '^[a-z]+$' },
              tool: { type: 'string' },
            },
          },
        },
        roleBindings: {
          type: 'array',
          items: {
            type: 'object',
            properties: { role: { type: 'string', enum: ['owner', 'editor', 'viewer'] } },
          },
        },
        replicas: { type: 'integer', minimum: 1, maximum: 10 },
        ratio: { type: 'number', minimum: 0, exclusiveMinimum: true },
        expires: { type: 'string', format: 'date-time' },
        timeout: { type: 'string', format: 'duration' },
        tags: { type: 'array', minItems: 1, items: { type: 'string' } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        comment: { type: 'string', nullable: true },
        cpu: {
          'x-kubernetes-int-or-string': true,
          anyOf: [{ type: 'integer' }, { type: 'string' }],
          pattern: '^[0-9]+m?$',
        },
        values: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        groups: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['port', 'protocol'],
          items: {
            type: 'object',
            required: ['port', 'protocol'],
            properties: { port: { type: 'integer' }, protocol: { type: 'string' } },
          },
        },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
      },
    }),
  );
  const handlers = [{ name: 'web', tool: 'fetch' }];

  const cases: Array<[string, Record<string, unknown>, FieldError[]]> = [
    ['accepts a valid object', { handlers }, []],
    [
      'accepts what the x-kubernetes extensions allow',
      {
        handlers,
        cpu: 2,
        comment: null,
        values: { anything: [1, 'two'] },
        groups: ['a', 'b'],
        ports: [
          { port: 53, protocol: 'UDP' },
          { port: 53, protocol: 'TCP' },
        ],
        template: { apiVersion: 'v1', kind: 'Pod', spec: {} },
        expires: '2030-01-01T00:00:00Z',
        timeout: '1h30m',
      },
      [],
    ],
    ['reports a missing required field of the object', {}, [required('spec.handlers')]],
    [
      'reports a missing required field of a list item',
      { handlers: [{ name: 'web', tool: 'fetch' }, { name: 'db' }] },
      [required('spec.handlers[1].tool')],
    ],
    [
      'reports a value outside the enum',
      { handlers, roleBindings: [{ role: 'owner' }, { role: 'admin' }] },
      [
        {
          reason: 'FieldValueNotSupported',
          field: 'spec.roleBindings[1].role',
          message: 'Unsupported value: "admin": supported values: "owner", "editor", "viewer"',
        },
      ],
    ],
    [
      'reports a value of the wrong type',
      { handlers, replicas: '3' },
      [
        {
          reason: 'FieldValueTypeInvalid',
          field: 'spec.replicas',
          message:
            'Invalid value: "string": spec.replicas in body must be of type integer: "string"',
        },
      ],
    ],
    [
      'reports null where the field is not nullable',
      { handlers, replicas: null },
      [
        {
          reason: 'FieldValueTypeInvalid',
          field: 'spec.replicas',
          message: 'Invalid value: "null": spec.replicas in body must be of type integer: "null"',
        },
      ],
    ],
    [
      'reports a map value of the wrong type',
      { handlers, labels: { team: 1 } },
      [
        {
          reason: 'FieldValueTypeInvalid',
          field: 'spec.labels.team',
          message:
            'Invalid value: "integer": spec.labels.team in body must be of type string: "integer"',
        },
      ],
    ],
    [
      'reports an int-or-string of neither type',
      { handlers, cpu: true },
      [
        {
          reason: 'FieldValueTypeInvalid',
          field: 'spec.cpu',
          message:
            'Invalid value: "boolean": spec.cpu in body must be of type integer,string: "boolean"',
        },
      ],
    ],
    [
      'reports string bounds and patterns',
      {
        handlers: [
          { name: '', tool: 't' },
          { name: 'Abcdef', tool: 't' },
        ],
      },
      [
        invalid(
          'spec.handlers[0].name',
          'Invalid value: "": spec.handlers[0].name in body should be at least 1 chars long',
        ),
        invalid(
          'spec.handlers[0].name',
          `Invalid value: "": spec.handlers[0].name in body should match '^[a-z]+$'`,
        ),
        {
          reason: 'FieldValueTooLong',
          field: 'spec.handlers[1].name',
          message: 'Too long: may not be longer than 5',
        },
        invalid(
          'spec.handlers[1].name',
          `Invalid value: "Abcdef": spec.handlers[1].name in body should match '^[a-z]+$'`,
        ),
      ],
    ],
    [
      'reports numeric bounds, with exclusive minimums as OpenAPI writes them',
      { handlers, replicas: 11, ratio: 0 },
      [
        invalid(
          'spec.replicas',
          'Invalid value: 11: spec.replicas in body should be less than or equal to 10',
        ),
        invalid('spec.ratio', 'Invalid value: 0: spec.ratio in body should be greater than 0'),
      ],
    ],
    [
      'reports list sizes',
      { handlers: [...handlers, ...handlers, ...handlers], tags: [] },
      [
        {
          reason: 'FieldValueTooMany',
          field: 'spec.handlers',
          message: 'Too many: 3: must have at most 2 items',
        },
        invalid('spec.tags', 'Invalid value: []: spec.tags in body should have at least 1 items'),
      ],
    ],
    [
      'reports malformed formats',
      { handlers, expires: 'tomorrow', timeout: 'P1D' },
      [
        invalid(
          'spec.expires',
          'Invalid value: "tomorrow": spec.expires in body must be of type date-time: "tomorrow"',
        ),
        invalid(
          'spec.timeout',
          'Invalid value: "P1D": spec.timeout in body must be of type duration: "P1D"',
        ),
      ],
    ],
    [
      'reports duplicates in set and map lists',
      {
        handlers,
        groups: ['a', 'b', 'a'],
        ports: [
          { port: 80, protocol: 'TCP' },
          { port: 80, protocol: 'TCP' },
        ],
      },
      [
        { reason: 'FieldValueDuplicate', field: 'spec.groups[2]', message: 'Duplicate value: "a"' },
        {
          reason: 'FieldValueDuplicate',
          field: 'spec.ports[1]',
          message: 'Duplicate value: {"port":80,"protocol":"TCP"}',
        },
      ],
    ],
    [
      'reports an embedded resource without apiVersion and kind',
      { handlers, template: { metadata: { name: 'p' } } },
      [
        {
          reason: 'FieldValueRequired',
          field: 'spec.template.apiVersion',
          message: 'Required value: must not be empty',
        },
        {
          reason: 'FieldValueRequired',
          field: 'spec.template.kind',
          message: 'Required value: must not be empty',
        },
      ],
    ],
  ];
  for (const [name, spec, expected] of cases) {
    it(name, () => assert.deepEqual(schema.validate(resource(spec)), expected));
  }
});

describe('CEL rules', () => {
  const handler = {
    type: 'object',
    required: ['name', 'type'],
    properties: {
      name: { type: 'string' },
      type: { type: 'string', enum: ['http', 'mcp'] },
      tool: { type: 'string' },
      weight: { type: 'number' },
    },
    'x-kubernetes-validations': [
      { rule: "self.type != 'http' || has(self.tool)", message: 'type http requires tool' },
    ],
  };
  const schema = compileSchema(
    resourceSchema({
      type: 'object',
      properties: {
        handlers: { type: 'array', items: handler },
        labels: {
          type: 'object',
          additionalProperties: { type: 'string' },
          'x-kubernetes-validations': [
            {
              rule: "self.all(k, !k.startsWith('paddock.dev/'))",
              message: 'keys must not use the reserved paddock.dev/ prefix',
            },
          ],
        },
        storageClass: {
          type: 'string',
          'x-kubernetes-validations': [
            { rule: 'self == oldSelf', message: 'storageClass is immutable' },
          ],
        },
        replicas: {
          type: 'integer',
          'x-kubernetes-validations': [
            {
              rule: 'self <= 10',
              messageExpression: "'replicas ' + string(self) + ' is more than 10'",
            },
            { rule: 'oldSelf <= self', message: 'replicas may not decrease' },
          ],
        },
        ports: {
          type: 'array',
          items: { type: 'integer' },
          'x-kubernetes-validations': [
            { rule: 'self.isSorted()' },
            {
              rule: 'self.all(p, p > 0)',
              reason: 'FieldValueForbidden',
              message: 'ports must be positive',
            },
          ],
        },
        members: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: {
            type: 'object',
            required: ['name'],
            properties: {
              name: { type: 'string' },
              role: {
                type: 'string',
                'x-kubernetes-validations': [
                  { rule: "self == oldSelf || oldSelf != 'owner'", message: 'owners stay owners' },
                ],
              },
            },
          },
        },
        window: {
          type: 'object',
          properties: {
            start: { type: 'string', format: 'date-time' },
            end: { type: 'string', format: 'date-time' },
            length: { type: 'string', format: 'duration' },
          },
          'x-kubernetes-validations': [
            { rule: 'self.end > self.start', message: 'end must follow start', fieldPath: '.end' },
            { rule: "self.length <= duration('24h')", message: 'at most a day' },
          ],
        },
      },
      'x-kubernetes-validations': [
        {
          rule: '!has(self.handlers) || self.handlers.all(h, self.handlers.exists_one(x, x.name == h.name))',
          message: 'handler names must be unique',
        },
      ],
    }),
  );

  const cases: Array<[string, Record<string, unknown>, FieldError[]]> = [
    [
      'accepts an object every rule holds for',
      {
        handlers: [
          { name: 'a', type: 'http', tool: 't' },
          { name: 'b', type: 'mcp', weight: 2 },
        ],
        labels: { team: 'x' },
        ports: [80, 443],
        window: { start: '2030-01-01T00:00:00Z', end: '2030-01-02T00:00:00Z', length: '90m' },
      },
      [],
    ],
    [
      'reports a conditional requirement at the node carrying the rule',
      {
        handlers: [
          { name: 'a', type: 'mcp' },
          { name: 'b', type: 'http' },
        ],
      },
      [invalid('spec.handlers[1]', 'Invalid value: "object": type http requires tool')],
    ],
    [
      'reports names that are not unique (exists_one)',
      {
        handlers: [
          { name: 'a', type: 'mcp' },
          { name: 'a', type: 'mcp' },
        ],
      },
      [invalid('spec', 'Invalid value: "object": handler names must be unique')],
    ],
    [
      'reports reserved key prefixes (startsWith over map keys)',
      { labels: { team: 'x', 'paddock.dev/shared': 'true' } },
      [
        invalid(
          'spec.labels',
          'Invalid value: "object": keys must not use the reserved paddock.dev/ prefix',
        ),
      ],
    ],
    [
      'uses messageExpression, "failed rule" without a message, and the rule reason',
      { replicas: 12, ports: [443, 80, -1] },
      [
        invalid('spec.replicas', 'Invalid value: "integer": replicas 12 is more than 10'),
        invalid('spec.ports', 'Invalid value: "array": failed rule: self.isSorted()'),
        {
          reason: 'FieldValueForbidden',
          field: 'spec.ports',
          message: 'Forbidden: ports must be positive',
        },
      ],
    ],
    [
      'reports at the rule fieldPath, with timestamps and durations for date-time and duration',
      { window: { start: '2030-01-02T00:00:00Z', end: '2030-01-01T00:00:00Z', length: '25h' } },
      [
        invalid('spec.window.end', 'Invalid value: "object": end must follow start'),
        invalid('spec.window', 'Invalid value: "object": at most a day'),
      ],
    ],
    ['skips transition rules on create', { storageClass: 'fast', replicas: 1 }, []],
    [
      'does not run rules when the object has a value of the wrong type or outside its enum',
      { handlers: [{ name: 'a', type: 'ftp' }], labels: { 'paddock.dev/x': 'y' } },
      [
        {
          reason: 'FieldValueNotSupported',
          field: 'spec.handlers[0].type',
          message: 'Unsupported value: "ftp": supported values: "http", "mcp"',
        },
        invalid(
          '',
          'Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
        ),
      ],
    ],
  ];
  for (const [name, spec, expected] of cases) {
    it(name, () => assert.deepEqual(schema.validate(resource(spec)), expected));
  }

  it('checks transition rules against the old object on update', () => {
    const old = resource({ storageClass: 'fast', replicas: 3 });
    assert.deepEqual(schema.validate(resource({ storageClass: 'fast', replicas: 4 }), old), []);
    assert.deepEqual(schema.validate(resource({ storageClass: 'slow', replicas: 2 }), old), [
      invalid('spec.storageClass', 'Invalid value: "string": storageClass is immutable'),
      invalid('spec.replicas', 'Invalid value: "integer": replicas may not decrease'),
    ]);
    // A field absent before has no old value: its transition rules do not apply.
    assert.deepEqual(schema.validate(resource({ storageClass: 'slow' }), resource({})), []);
  });

  it('matches the items of map lists to old items by key', () => {
    const old = resource({
      members: [
        { name: 'ann', role: 'owner' },
        { name: 'bob', role: 'viewer' },
      ],
    });
    const reordered = resource({
      members: [
        { name: 'bob', role: 'owner' },
        { name: 'ann', role: 'owner' },
      ],
    });
    assert.deepEqual(schema.validate(reordered, old), []);
    const demoted = resource({
      members: [
        { name: 'bob', role: 'viewer' },
        { name: 'ann', role: 'viewer' },
      ],
    });
    assert.deepEqual(schema.validate(demoted, old), [
      invalid('spec.members[1].role', 'Invalid value: "string": owners stay owners'),
    ]);
  });

  it('reports rules that do not compile or fail to evaluate, without throwing', () => {
    const broken = compileSchema(
      resourceSchema({
        type: 'object',
        properties: {
          name: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self ==', message: 'x' }] },
          tool: {
            type: 'object',
            properties: { url: { type: 'string' } },
            'x-kubernetes-validations': [
              { rule: "self.url.startsWith('https://')" },
              { rule: 'size(self)' },
              { rule: 'self.url.frobnicate()' },
            ],
          },
        },
      }),
    );
    const errors = broken.validate(resource({ name: 'a', tool: {} }));
    assert.deepEqual(
      errors.map((error) => [error.reason, error.field]),
      [
        ['FieldValueInvalid', 'spec.name'],
        ['FieldValueInvalid', 'spec.tool'],
        ['FieldValueInvalid', 'spec.tool'],
        ['FieldValueInvalid', 'spec.tool'],
      ],
    );
    assert.match(
      errors[0]!.message,
      /^Invalid value: "string": rule compile error: compilation failed: /,
    );
    assert.equal(
      errors[1]!.message,
      `Invalid value: "object": field not found: url evaluating rule: self.url.startsWith('https://')`,
    );
    assert.equal(
      errors[2]!.message,
      'Invalid value: "object": rule compile error: cel expression must evaluate to a bool',
    );
    assert.match(errors[3]!.message, /frobnicate.* evaluating rule: self\.url\.frobnicate\(\)$/);
  });

  it("provides Kubernetes' list, regex and sets functions and the strings extension", () => {
    const rules = [
      'self.numbers.sum() == 6 && self.numbers.min() == 1 && self.numbers.max() == 3',
      'self.numbers.indexOf(2) == 1 && self.numbers.lastIndexOf(9) == -1',
      "self.text.find('[0-9]+') == '42' && self.text.findAll('[a-z]') == ['a', 'b']",
      'sets.contains(self.numbers, [1, 3]) && sets.intersects(self.numbers, [3, 4])',
      "self.text.lowerAscii().split('-').size() == 2 && self.text.matches('^[a-z]+-[0-9]+$')",
      'self.ratio > 1 && self.ratio < 2 && self.numbers.exists(n, n == 2)',
      "self.numbers.map(n, n * 2).filter(n, n > 2) == [4, 6] && 'a' in ['a'] && self.text.endsWith('42')",
    ];
    const library = compileSchema(
      resourceSchema({
        type: 'object',
        properties: {
          numbers: { type: 'array', items: { type: 'integer' } },
          text: { type: 'string' },
          ratio: { type: 'number' },
        },
        'x-kubernetes-validations': rules.map((rule) => ({ rule })),
      }),
    );
    assert.deepEqual(
      library.validate(resource({ numbers: [1, 2, 3], text: 'ab-42', ratio: 1.5 })),
      [],
    );
  });
});

describe('checkStructural', () => {
  const good: Array<[string, object]> = [
    [
      'a typed schema with maps, lists, int-or-string, preserved and embedded fields',
      resourceSchema({
        type: 'object',
        properties: {
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          cpu: {
            'x-kubernetes-int-or-string': true,
            anyOf: [{ type: 'integer' }, { type: 'string' }],
          },
          values: { 'x-kubernetes-preserve-unknown-fields': true },
          template: {
            type: 'object',
            'x-kubernetes-embedded-resource': true,
            'x-kubernetes-preserve-unknown-fields': true,
          },
          ports: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['port'],
            items: {
              type: 'object',
              required: ['port'],
              properties: {
                port: { type: 'integer' },
                name: {
                  type: 'string',
                  'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'immutable' }],
                },
              },
            },
          },
          mode: {
            type: 'string',
            anyOf: [{ pattern: '^a' }, { pattern: '^b' }],
            'x-kubernetes-validations': [{ rule: "self != 'x'" }],
          },
        },
      }),
    ],
    [
      'a root restricting metadata.name',
      {
        type: 'object',
        properties: {
          metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 20 } } },
        },
      },
    ],
  ];
  for (const [name, schema] of good) {
    it(`accepts ${name}`, () => assert.deepEqual(checkStructural(schema), []));
  }

  // The parser's own words are matched loosely: they belong to the CEL library, not to this code.
  const bad: Array<[string, object, Array<string | RegExp>]> = [
    [
      'a missing type',
      resourceSchema({
        type: 'object',
        properties: { name: {}, list: { type: 'array', items: {} } },
      }),
      [
        'openAPIV3Schema.properties[spec].properties[name].type: Required value: must not be empty for specified object fields',
        'openAPIV3Schema.properties[spec].properties[list].items.type: Required value: must not be empty for specified array items',
      ],
    ],
    [
      'a root without type',
      { properties: {} },
      ['openAPIV3Schema.type: Required value: must not be empty at the root'],
    ],
    [
      '$ref',
      resourceSchema({
        type: 'object',
        properties: { other: { type: 'object', $ref: '#/definitions/x' } },
      }),
      ['openAPIV3Schema.properties[spec].properties[other].$ref: Forbidden: $ref is not supported'],
    ],
    [
      'properties and additionalProperties together',
      resourceSchema({
        type: 'object',
        properties: { a: { type: 'string' } },
        additionalProperties: { type: 'string' },
      }),
      [
        'openAPIV3Schema.properties[spec].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive',
      ],
    ],
    [
      'additionalProperties: false',
      resourceSchema({
        type: 'object',
        properties: { a: { type: 'string' } },
        additionalProperties: false,
      }),
      [
        'openAPIV3Schema.properties[spec].additionalProperties: Forbidden: additionalProperties cannot be set to false',
      ],
    ],
    [
      'a type inside a logical junctor and a field only specified there',
      resourceSchema({
        type: 'object',
        properties: { a: { type: 'string' } },
        anyOf: [{ type: 'object' }, { properties: { b: { minLength: 1 } } }],
      }),
      [
        'openAPIV3Schema.properties[spec].anyOf[0].type: Forbidden: must be empty to be structural',
        'openAPIV3Schema.properties[spec].anyOf[1].properties[b]: Forbidden: must be specified outside of the logical junctors too',
      ],
    ],
    [
      'metadata restricted beyond name and generateName',
      {
        type: 'object',
        properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } },
      },
      [
        'openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified',
      ],
    ],
    [
      'a rule that does not compile and oldSelf in items of an atomic list',
      resourceSchema({
        type: 'object',
        properties: {
          tags: {
            type: 'array',
            items: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] },
          },
        },
        'x-kubernetes-validations': [{ rule: 'self.' }],
      }),
      [
        /^openAPIV3Schema\.properties\[spec\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: "self\.": compilation failed: <input>:1:\d+: /,
        'openAPIV3Schema.properties[spec].properties[tags].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within openAPIV3Schema.properties[spec].properties[tags].items',
      ],
    ],
  ];
  for (const [name, schema, problems] of bad) {
    it(`reports ${name}`, () => {
      const reported = checkStructural(schema);
      assert.equal(reported.length, problems.length, reported.join('\n'));
      problems.forEach((problem, index) => {
        if (typeof problem === 'string') assert.equal(reported[index], problem);
        else assert.match(reported[index] ?? '', problem);
      });
    });
  }
});

describe("Paddock's resource kinds", () => {
  const examples = new URL('../../../examples/resources/', import.meta.url);
  const compiled = new Map(
    customResourceDefinitions().map((crd) => {
      const version = crd.spec.versions[0]!;
      return [
        crd.spec.names.kind,
        {
          schema: version.schema.openAPIV3Schema,
          compiled: compileSchema(version.schema.openAPIV3Schema),
        },
      ];
    }),
  );

  function admit(file: URL): FieldError[] {
    const object = parse(readFileSync(file, 'utf8')) as KubeObject;
    const kind = compiled.get(String(object.kind));
    assert.ok(kind, `no CRD for ${String(object.kind)}`);
    kind.compiled.applyDefaults(object);
    kind.compiled.prune(object);
    return kind.compiled.validate(object);
  }

  it('compiles structural schemas for every kind', () => {
    for (const [kind, { schema }] of compiled) assert.deepEqual(checkStructural(schema), [], kind);
  });

  for (const name of readdirSync(examples).filter((file) => file.endsWith('.yaml'))) {
    it(`admits examples/resources/${name}`, () =>
      assert.deepEqual(admit(new URL(name, examples)), []));
  }

  const rejected: Record<string, [string, string]> = {
    'bad-cidr.yaml': ['FieldValueInvalid', 'spec.networkPolicy.allowTo[0].peers[0].ipBlock.cidr'],
    'duplicate-handler-names.yaml': ['FieldValueInvalid', 'spec'],
    'http-handler-without-tool.yaml': ['FieldValueInvalid', 'spec.handlers[0]'],
    'reserved-label.yaml': ['FieldValueInvalid', 'spec.namespace.labels'],
    'sse-mcp-without-endpoint.yaml': ['FieldValueInvalid', 'spec.handlers[0].mcpConfig'],
    'unknown-role.yaml': ['FieldValueNotSupported', 'spec.roleBindings[0].role'],
  };
  const invalidExamples = new URL('invalid/', examples);
  for (const name of readdirSync(invalidExamples).filter((file) => file.endsWith('.yaml'))) {
    it(`rejects examples/resources/invalid/${name}`, () => {
      const errors = admit(new URL(name, invalidExamples));
      assert.ok(errors.length > 0, 'accepted');
      const expected = rejected[name];
      if (expected) assert.deepEqual([errors[0]!.reason, errors[0]!.field], expected);
    });
  }
});
