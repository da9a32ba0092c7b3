import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  containerMounts,
  hostPathOf,
  tmpDirOf,
  type HostMount,
} from '../../src/local-node/mounts.js';
import type { Container, Pod } from '../../src/local-node/pod.js';
import { SANDBOX_CONTAINER, sandboxPod } from './fixtures.js';

const DATA = '/srv/data';

describe('a container’s mounts on this machine', () => {
  it('are its claim’s folder and the pod’s own emptyDir folder, longest path first', () => {
    assert.deepEqual(containerMounts(sandboxPod(), SANDBOX_CONTAINER, DATA), {
      ok: true,
      mounts: [
        {
          mountPath: '/workspace',
          hostPath: '/srv/data/volumes/team/workspace-web-0',
          claim: 'workspace-web-0',
        },
        { mountPath: '/tmp', hostPath: '/srv/data/pods/uid-web-0/tmp' },
      ],
    });
  });

  it('put a projected volume under its own root, at the whole mount path', () => {
    const pod = sandboxPod();
    pod.spec.volumes!.push({ name: 'kube-api-access', projected: { sources: [] } });
    const container: Container = {
      ...SANDBOX_CONTAINER,
      volumeMounts: [
        {
          name: 'kube-api-access',
          mountPath: '/var/run/secrets/kubernetes.io/serviceaccount/',
          readOnly: true,
        },
      ],
    };
    assert.deepEqual(containerMounts(pod, container, DATA), {
      ok: true,
      mounts: [
        {
          mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
          hostPath:
            '/srv/data/pods/uid-web-0/.projected/kube-api-access/var/run/secrets/kubernetes.io/serviceaccount',
          projected: 'kube-api-access',
        },
      ],
    });
  });

  it('honour a subPath and a trailing slash, nested mounts first', () => {
    const container: Container = {
      ...SANDBOX_CONTAINER,
      volumeMounts: [
        { name: 'workspace', mountPath: '/data/' },
        { name: 'tmp', mountPath: '/data/cache', subPath: 'c/d' },
      ],
    };
    const result = containerMounts(sandboxPod(container), container, DATA);
    assert.ok(result.ok);
    assert.deepEqual(
      result.mounts.map((m) => [m.mountPath, m.hostPath]),
      [
        ['/data/cache', '/srv/data/pods/uid-web-0/tmp/c/d'],
        ['/data', '/srv/data/volumes/team/workspace-web-0'],
      ],
    );
  });

  const refusals: {
    name: string;
    pod: (p: Pod) => Pod;
    mount?: Container['volumeMounts'];
    message: RegExp;
  }[] = [
    {
      name: 'a volume the pod does not define',
      pod: (p) => ({ ...p, spec: { ...p.spec, volumes: [] } }),
      message: /volume "workspace" is mounted but not defined/,
    },
    {
      name: 'a volume kind this node does not serve',
      pod: (p) => ({
        ...p,
        spec: { ...p.spec, volumes: [{ name: 'workspace' }, { name: 'tmp', emptyDir: {} }] },
      }),
      message: /only persistentVolumeClaim, emptyDir and projected/,
    },
    {
      name: 'a subPath of a projected volume',
      pod: (p) => ({ ...p, spec: { ...p.spec, volumes: [{ name: 'sa', projected: {} }] } }),
      mount: [{ name: 'sa', mountPath: '/var/run/secrets', subPath: 'token' }],
      message: /subPath of a projected volume is not served/,
    },
    {
      name: 'a projected volume at a relative path',
      pod: (p) => ({ ...p, spec: { ...p.spec, volumes: [{ name: 'sa', projected: {} }] } }),
      mount: [{ name: 'sa', mountPath: '../up' }],
      message: /must be absolute/,
    },
    {
      name: 'a subPath that climbs out',
      pod: (p) => p,
      mount: [{ name: 'workspace', mountPath: '/w', subPath: '../other' }],
      message: /invalid subPath/,
    },
    {
      name: 'a claim name that is a path',
      pod: (p) => ({
        ...p,
        spec: {
          ...p.spec,
          volumes: [{ name: 'workspace', persistentVolumeClaim: { claimName: '..' } }],
        },
      }),
      mount: [{ name: 'workspace', mountPath: '/w' }],
      message: /invalid claim name/,
    },
  ];
  for (const r of refusals) {
    it(`refuse ${r.name}`, () => {
      const container = r.mount
        ? { ...SANDBOX_CONTAINER, volumeMounts: r.mount }
        : SANDBOX_CONTAINER;
      const result = containerMounts(r.pod(sandboxPod(container)), container, DATA);
      assert.equal(result.ok, false);
      assert.match(result.ok ? '' : result.message, r.message);
    });
  }
});

describe('a container path rewritten for this machine', () => {
  const mounts: HostMount[] = [
    { mountPath: '/workspace/cache', hostPath: '/d/cache' },
    { mountPath: '/workspace', hostPath: '/d/ws' },
    { mountPath: '/tmp', hostPath: '/d/tmp' },
  ];
  const cases: [string, string][] = [
    ['/workspace', '/d/ws'],
    ['/workspace/src/a.ts', '/d/ws/src/a.ts'],
    ['/workspace/', '/d/ws/'],
    ['/workspace/cache/x', '/d/cache/x'],
    ['/workspaces', '/workspaces'],
    ['/tmp', '/d/tmp'],
    ['workspace', 'workspace'],
    ['-workspace', '-workspace'],
    ['0.0.0.0:7070', '0.0.0.0:7070'],
    ['', ''],
  ];
  for (const [input, want] of cases) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(want)}`, () =>
      assert.equal(hostPathOf(input, mounts), want));
  }

  it('sets TMPDIR only when something is mounted at /tmp', () => {
    assert.equal(tmpDirOf(mounts), '/d/tmp');
    assert.equal(tmpDirOf(mounts.slice(0, 2)), undefined);
  });
});
