import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AGENT_NODE_FLAGS, SANDBOX_NODE_FLAGS } from '@paddock/common';
import { containerProgram, portClash } from '../../src/local-node/container-program.js';
import type { Container } from '../../src/local-node/pod.js';
import { programBins } from '../../src/local-node.js';
import { binOf } from '../../src/package-bins.js';

const BINS = { sandbox: '/bin/sandbox.js', agent: '/bin/agent.js' };
const container = (fields: Partial<Container>): Container => ({
  name: 'c',
  image: 'paddock-sandbox:latest',
  ...fields,
});

describe('the program a container runs, with the flags its image gives it', () => {
  const cases: [string, Partial<Container>, ReturnType<typeof containerProgram>][] = [
    [
      'no command: the sandbox',
      { args: ['-addr', ':7070'] },
      { ok: true, bin: BINS.sandbox, args: ['-addr', ':7070'], nodeFlags: SANDBOX_NODE_FLAGS },
    ],
    [
      'paddock-sandbox',
      { command: ['paddock-sandbox'], args: ['-x'] },
      { ok: true, bin: BINS.sandbox, args: ['-x'], nodeFlags: SANDBOX_NODE_FLAGS },
    ],
    [
      'paddock-agent, its args',
      { command: ['paddock-agent'], args: ['--port', '7072'] },
      { ok: true, bin: BINS.agent, args: ['--port', '7072'], nodeFlags: AGENT_NODE_FLAGS },
    ],
    [
      'a path ending in paddock-agent, the command’s words first',
      { command: ['/usr/local/bin/paddock-agent', 'serve'], args: ['-v'] },
      { ok: true, bin: BINS.agent, args: ['serve', '-v'], nodeFlags: AGENT_NODE_FLAGS },
    ],
    [
      'an image from a registry with a digest',
      { image: 'ghcr.io/x/paddock-sandbox@sha256:abc' },
      { ok: true, bin: BINS.sandbox, args: [], nodeFlags: SANDBOX_NODE_FLAGS },
    ],
  ];
  for (const [name, fields, want] of cases) {
    it(name, () => assert.deepEqual(containerProgram(container(fields), BINS), want));
  }

  it('refuses another command, saying which', () => {
    const result = containerProgram(container({ command: ['sh', '-c', 'echo'] }), BINS);
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.reason, 'CreateContainerError');
    assert.match(
      !result.ok ? result.message : '',
      /only the paddock-sandbox and paddock-agent commands.*"sh" cannot run here/,
    );
  });

  it('refuses another image before anything else', () => {
    const result = containerProgram(
      container({ image: 'busybox', command: ['paddock-agent'] }),
      BINS,
    );
    assert.equal(!result.ok && result.reason, 'ErrImageNeverPull');
    assert.match(!result.ok ? result.message : '', /"busybox" cannot run here/);
  });

  it('runs the workspace packages’ commands by default', () => {
    assert.deepEqual(programBins({}), {
      sandbox: binOf('@paddock/sandbox', 'paddock-sandbox'),
      agent: binOf('@paddock/agent', 'paddock-agent'),
    });
    assert.match(programBins({}).agent, /packages\/agent\/bin\/paddock-agent\.js$/);
    assert.deepEqual(programBins({ sandboxBin: '/s', agentBin: '/a' }), {
      sandbox: '/s',
      agent: '/a',
    });
  });
});

describe('ports of a pod’s containers', () => {
  const sandbox = container({
    name: 'sandbox',
    ports: [{ containerPort: 7070 }, { containerPort: 7071 }],
  });
  it('may differ', () => {
    const agent = container({ name: 'agent', ports: [{ name: 'runs', containerPort: 7072 }] });
    assert.equal(portClash([sandbox, agent], 1), undefined);
    assert.equal(portClash([sandbox, agent], 0), undefined);
  });
  it('may not be the same for two (one address), the later one waits', () => {
    const agent = container({ name: 'agent', ports: [{ containerPort: 7071, protocol: 'TCP' }] });
    assert.equal(portClash([sandbox, agent], 0), undefined);
    assert.equal(
      portClash([sandbox, agent], 1),
      'port 7071 is also declared by container "sandbox": the containers of a pod share one address',
    );
    const udp = container({ name: 'udp', ports: [{ containerPort: 7071, protocol: 'UDP' }] });
    assert.equal(portClash([sandbox, udp], 1), undefined, 'another protocol');
  });
});
