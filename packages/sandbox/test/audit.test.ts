import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditLine, formatDuration } from '../src/api/audit.js';

describe('formatDuration', () => {
  it('prints zero, and anything not positive, as 0s', () => {
    assert.equal(formatDuration(0), '0s');
    assert.equal(formatDuration(-5), '0s');
  });

  it('prints durations under a millisecond in microseconds', () => {
    assert.equal(formatDuration(0.001), '1µs');
    assert.equal(formatDuration(0.85), '850µs');
    assert.equal(formatDuration(0.999), '999µs');
  });

  it('prints durations under a second in milliseconds, without trailing zeros', () => {
    assert.equal(formatDuration(1), '1ms');
    assert.equal(formatDuration(12.5), '12.5ms');
    assert.equal(formatDuration(12.345678), '12.345678ms');
    assert.equal(formatDuration(999.5), '999.5ms');
  });

  it('prints seconds, then minutes and hours as Go does, with the seconds to the millisecond', () => {
    assert.equal(formatDuration(1000), '1s');
    assert.equal(formatDuration(1250), '1.25s');
    assert.equal(formatDuration(59_500), '59.5s');
    assert.equal(formatDuration(60_000), '1m0s');
    assert.equal(formatDuration(123_500), '2m3.5s');
    assert.equal(formatDuration(3_600_000), '1h0m0s');
    assert.equal(formatDuration(3_600_001), '1h0m0.001s');
    assert.equal(formatDuration(90_061_001), '25h1m1.001s');
  });

  it('never rounds a value up into the next unit, and prints nanoseconds below a microsecond', () => {
    assert.equal(formatDuration(0.0005), '500ns');
    assert.equal(formatDuration(999.9999), '999.9999ms');
    assert.equal(formatDuration(59_999.9999), '59.9999999s');
    assert.equal(formatDuration(119_999.9999), '1m59.9999999s');
    assert.equal(formatDuration(3_599_999.9999), '59m59.9999999s');
  });
});

describe('audit lines', () => {
  it('formats a port-forward session with the bytes each way and its duration', () => {
    assert.equal(
      auditLine.portForward({ sub: 'alice', port: 5432, bytesIn: 120, bytesOut: 4096, ms: 1250 }),
      'api port-forward sub=alice port=5432 in=120 out=4096 dur=1.25s',
    );
  });

  it('formats an exec session with its duration and exit code', () => {
    assert.equal(
      auditLine.exec({ sub: 'alice', ms: 123_500, exit: 129 }),
      'api exec sub=alice duration=2m3.5s exit=129',
    );
  });

  it('formats an SSH session with its duration and exit code', () => {
    assert.equal(
      auditLine.ssh({ sub: 'bob', ms: 12.5, exit: 0 }),
      'api ssh sub=bob duration=12.5ms exit=0',
    );
  });

  it('formats an SSH key registration with the key type', () => {
    assert.equal(
      auditLine.sshAuthorizedKey({ sub: 'bob', type: 'ssh-ed25519' }),
      'api ssh-authorized-keys sub=bob type=ssh-ed25519',
    );
  });

  it('writes sub=unknown when the subject is missing or empty', () => {
    assert.equal(
      auditLine.portForward({ sub: undefined, port: 80, bytesIn: 0, bytesOut: 0, ms: 0 }),
      'api port-forward sub=unknown port=80 in=0 out=0 dur=0s',
    );
    assert.equal(
      auditLine.exec({ sub: '', ms: 1, exit: 0 }),
      'api exec sub=unknown duration=1ms exit=0',
    );
    assert.equal(
      auditLine.ssh({ sub: undefined, ms: 1000, exit: 1 }),
      'api ssh sub=unknown duration=1s exit=1',
    );
    assert.equal(
      auditLine.sshAuthorizedKey({ sub: '', type: 'ssh-rsa' }),
      'api ssh-authorized-keys sub=unknown type=ssh-rsa',
    );
  });

  it('keeps a line one line with space-separated fields whatever the subject holds', () => {
    const line = auditLine.exec({ sub: 'eve\nmallory x', ms: 1, exit: 0 });
    assert.equal(line, 'api exec sub=eve_mallory_x duration=1ms exit=0');
    assert.ok(!line.includes('\n'));
  });
});
