import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CodedError, HttpError, httpErrors, toEnvelope } from '@paddock/common';

describe('error envelope mapping', () => {
  it('keeps the status, code and message of an HttpError', () => {
    assert.deepEqual(toEnvelope(httpErrors.forbidden('viewers cannot scale agents')), {
      status: 403,
      body: { error: 'forbidden', message: 'viewers cannot scale agents' },
    });
    assert.deepEqual(toEnvelope(new HttpError(409, 'conflict', 'taken')).status, 409);
  });

  it('maps a domain error by the status its service gives the code, else as unexpected', () => {
    const taken = new CodedError('username_exists', 'that username is taken');
    const statusOf = (code: string) => (code === 'username_exists' ? 409 : undefined);
    assert.deepEqual(toEnvelope(taken, statusOf), {
      status: 409,
      body: { error: 'username_exists', message: 'that username is taken' },
    });
    assert.deepEqual(toEnvelope(new CodedError('unheard_of', 'x'), statusOf), {
      status: 500,
      body: { error: 'internal_error', message: 'internal server error' },
    });
    assert.equal(toEnvelope(taken).status, 500);
  });

  it('maps framework errors to their documented codes', () => {
    const tooLarge = Object.assign(new Error('Request body is too large'), {
      code: 'FST_ERR_CTP_BODY_TOO_LARGE',
      statusCode: 413,
    });
    assert.deepEqual(toEnvelope(tooLarge), {
      status: 413,
      body: { error: 'payload_too_large', message: 'Request body is too large' },
    });
    const badJson = Object.assign(new SyntaxError('Unexpected token } in JSON'), {
      statusCode: 400,
    });
    assert.equal(toEnvelope(badJson).body.error, 'invalid_request');
  });

  it('hides the details of unexpected failures', () => {
    assert.deepEqual(toEnvelope(new Error('connection string postgres://u:secret@db')), {
      status: 500,
      body: { error: 'internal_error', message: 'internal server error' },
    });
    assert.equal(toEnvelope('a string').status, 500);
    assert.equal(toEnvelope(null).status, 500);
  });
});
