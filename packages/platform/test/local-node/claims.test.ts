import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boundStatus } from '../../src/local-node/claims.js';
import type { PersistentVolumeClaim } from '../../src/local-node/pod.js';

const claim = (
  spec: PersistentVolumeClaim['spec'],
  status?: PersistentVolumeClaim['status'],
): PersistentVolumeClaim => ({
  metadata: { name: 'workspace-web-0', namespace: 'team' },
  spec,
  ...(status ? { status } : {}),
});

describe('a claim provisioned by the local node', () => {
  it('is Bound with the storage it requested and its access modes', () => {
    assert.deepEqual(
      boundStatus(
        claim(
          { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } } },
          { phase: 'Pending' },
        ),
      ),
      { phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '10Gi' } },
    );
  });

  it('is Bound without capacity when it requested none', () => {
    assert.deepEqual(boundStatus(claim({})), { phase: 'Bound' });
  });

  it('is unchanged once bound, so nothing is written again', () => {
    const spec = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } };
    const bound = boundStatus(claim(spec));
    assert.deepEqual(boundStatus(claim(spec, bound)), bound);
  });
});
