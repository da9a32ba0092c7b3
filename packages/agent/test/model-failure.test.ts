import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ModelError } from '../src/model.js';
import { modelErrorCode, toModelError } from '../src/providers/model-failure.js';

describe('modelErrorCode', () => {
  const cases: [status: number | undefined, aborted: boolean, code: string][] = [
    [401, false, 'model_unauthorized'],
    [403, false, 'model_unauthorized'],
    [404, false, 'model_not_found'],
    [400, false, 'model_request_invalid'],
    [413, false, 'model_request_invalid'],
    [422, false, 'model_request_invalid'],
    [408, false, 'model_unavailable'],
    [409, false, 'model_unavailable'],
    [429, false, 'model_unavailable'],
    [500, false, 'model_unavailable'],
    [503, false, 'model_unavailable'],
    [529, false, 'model_unavailable'],
    [undefined, false, 'model_unavailable'],
    [401, true, 'cancelled'],
    [undefined, true, 'cancelled'],
  ];
  for (const [status, aborted, code] of cases) {
    it(`${status ?? 'no status'}${aborted ? ', aborted' : ''} → ${code}`, () => {
      assert.equal(modelErrorCode(status, aborted), code);
    });
  }
});

describe('toModelError', () => {
  const live = new AbortController().signal;

  it('keeps the status and the provider message', () => {
    const error = Object.assign(new Error('401 Incorrect API key provided'), { status: 401 });
    const mapped = toModelError(error, live);
    assert.equal(mapped.code, 'model_unauthorized');
    assert.equal(mapped.status, 401);
    assert.match(mapped.message, /refused the credentials: 401 Incorrect API key provided/);
  });

  it('names a failure without a status unavailable', () => {
    const mapped = toModelError(new TypeError('fetch failed'), live);
    assert.equal(mapped.code, 'model_unavailable');
    assert.equal(mapped.status, undefined);
  });

  it('names anything thrown after the signal aborted a cancellation', () => {
    const controller = new AbortController();
    controller.abort();
    const mapped = toModelError(
      Object.assign(new Error('boom'), { status: 500 }),
      controller.signal,
    );
    assert.equal(mapped.code, 'cancelled');
  });

  it('names an AbortError a cancellation', () => {
    const abort = new Error('This operation was aborted');
    abort.name = 'AbortError';
    assert.equal(toModelError(abort, live).code, 'cancelled');
  });

  it('passes a ModelError through', () => {
    const error = new ModelError('model_not_found', 'no such model', 404);
    assert.equal(toModelError(error, live), error);
  });
});
