import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toEnvelope } from '@paddock/common';
import { ForbiddenError, NotFoundError } from '@paddock/kube';
import { RetryLater } from '../src/builtin/source-limits.js';
import { DASHBOARD_ERROR_CODES, DashboardError, isDashboardError } from '../src/errors.js';
import { apiError, ERROR_STATUS, statusOfCode, statusOfError } from '../src/http/errors.js';
import { fromCluster } from '../src/workspaces/cluster-errors.js';

describe('the dashboard’s domain errors at the HTTP edge', () => {
  it('answer every domain code with its status from the edge’s table, code and message kept', () => {
    for (const code of DASHBOARD_ERROR_CODES) {
      const { status, body } = toEnvelope(new DashboardError(code, `a ${code}`), statusOfCode);
      assert.equal(status, ERROR_STATUS[code], code);
      assert.deepEqual(body, { error: code, message: `a ${code}` });
    }
  });

  it('answer as the edge’s own errors of the same code did', () => {
    for (const code of DASHBOARD_ERROR_CODES) {
      assert.deepEqual(
        toEnvelope(new DashboardError(code, 'same'), statusOfCode),
        toEnvelope(apiError(code, 'same')),
        code,
      );
    }
  });

  it('keep a rate limit’s seconds for Retry-After', () => {
    const limited = new RetryLater(7, 'too many requests from your address: try again in 7 s');
    assert.ok(isDashboardError(limited, 'rate_limited'));
    assert.equal(limited.retryAfterSeconds, 7);
    assert.equal(statusOfError(limited), 429);
  });

  it('answer an unknown code as an unexpected failure', () => {
    assert.equal(statusOfCode('no_such_code'), undefined);
    assert.equal(statusOfCode('toString'), undefined);
    assert.equal(statusOfError(new Error('boom')), undefined);
  });

  it('translate the cluster’s refusals into domain codes', () => {
    const cases: Array<[unknown, string]> = [
      [new ForbiddenError('no', 403, 'Forbidden'), 'forbidden'],
      [new NotFoundError('gone', 404, 'NotFound'), 'not_found'],
      [new Error('connection refused'), 'unavailable'],
      [new DashboardError('workspace_suspended', 'suspended'), 'workspace_suspended'],
    ];
    for (const [err, code] of cases) {
      const translated = fromCluster(err, 'agent "a"');
      assert.ok(translated instanceof DashboardError, String(err));
      assert.equal(translated.code, code);
    }
  });
});
