import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  followAddresses,
  forPlatform,
  SAMPLE_DEFAULTS,
  WRITTEN_FOR_ANNOTATION,
  type Sample,
} from '../src/sample-addresses.js';

const registry: Sample = {
  apiVersion: 'paddock.dev/v1alpha1',
  kind: 'ToolRegistry',
  metadata: { name: 'sample-tools', namespace: 'paddock-sample' },
  spec: {
    handlers: [
      { name: 'sandbox', mcpConfig: { endpoint: 'http://127.0.0.1:7070/sse' } },
      { name: 'files', openAPIConfig: { specURL: 'http://127.0.0.1:7071/api/openapi.yaml' } },
      { name: 'config', endpoint: { url: 'http://127.0.0.1:3000/api/auth/config' } },
      { name: 'elsewhere', endpoint: { url: 'http://127.0.0.1:30001/x' } },
    ],
  },
};
const moved = { host: '127.0.0.1', sandboxPort: 8080, dashboardPort: 4000 };
const urls = (object: Sample) => JSON.stringify(object.spec).match(/http:\/\/[^/"]+/g);

describe('the samples’ addresses', () => {
  it('follow the ports and interface the platform listens on, and record them', () => {
    const local = forPlatform(registry, moved);
    assert.deepEqual(urls(local), [
      'http://127.0.0.1:8080',
      'http://127.0.0.1:8081',
      'http://127.0.0.1:4000',
      'http://127.0.0.1:30001',
    ]);
    assert.equal(
      local.metadata?.annotations?.[WRITTEN_FOR_ANNOTATION],
      '127.0.0.1:8080,127.0.0.1:8081,127.0.0.1:4000',
    );
    const everywhere = forPlatform(registry, { ...SAMPLE_DEFAULTS, host: '0.0.0.0' });
    assert.deepEqual(urls(everywhere)?.slice(0, 3), [
      'http://127.0.0.1:7070',
      'http://127.0.0.1:7071',
      'http://127.0.0.1:3000',
    ]);
    const other = forPlatform(registry, { ...SAMPLE_DEFAULTS, host: '192.0.2.7' });
    assert.equal(urls(other)?.[0], 'http://192.0.2.7:7070');
  });

  it('leave objects that name no listener as they are', () => {
    const workspace: Sample = { kind: 'Workspace', metadata: { name: 's' }, spec: { a: 'b' } };
    assert.equal(forPlatform(workspace, moved), workspace);
  });

  it('move a sample at a restart on other ports, unless a person edited it', () => {
    const atDefaults = forPlatform(registry, SAMPLE_DEFAULTS);
    const atMoved = forPlatform(registry, moved);
    const cases: [string, Sample, Sample | undefined][] = [
      ['written before the annotation existed', { ...registry, metadata: {} }, atMoved],
      ['written for the defaults', atDefaults, atMoved],
      ['already at these ports', atMoved, undefined],
      ['edited by a person', { ...atDefaults, spec: { handlers: [] } }, undefined],
    ];
    for (const [name, existing, want] of cases) {
      assert.deepEqual(followAddresses(existing, registry, moved), want, name);
    }
    // And back to the defaults from the moved ports.
    assert.deepEqual(followAddresses(atMoved, registry, SAMPLE_DEFAULTS), atDefaults);
  });
});
