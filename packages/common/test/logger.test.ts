import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { ConfigError, createLogger, loggingFromEnv } from '@paddock/common';

function capture(format: 'json' | 'pretty') {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const logger = createLogger({ name: 'svc', format, destination: stream, level: 'debug' });
  return { logger, text: () => text };
}

describe('logs', () => {
  it('writes one JSON object per line with the service name, level and message', () => {
    const { logger, text } = capture('json');
    logger.info({ tool: 'Read', ms: 3 }, 'tool call');
    const line = JSON.parse(text().trim()) as Record<string, unknown>;
    assert.equal(line.name, 'svc');
    assert.equal(line.level, 30);
    assert.equal(line.msg, 'tool call');
    assert.equal(line.tool, 'Read');
  });

  it('writes readable text in pretty mode', () => {
    const { logger, text } = capture('pretty');
    logger.warn({ port: 7070 }, 'listening');
    assert.match(text(), /WARN.*listening/);
    assert.match(text(), /port: 7070/);
    assert.doesNotMatch(text(), /^\{/);
  });

  it('reads SVC_LOG_LEVEL and SVC_LOG_FORMAT, refusing unknown values', () => {
    assert.deepEqual(loggingFromEnv({ SVC_LOG_LEVEL: 'debug', SVC_LOG_FORMAT: 'json' }), {
      level: 'debug',
      format: 'json',
    });
    assert.throws(() => loggingFromEnv({ SVC_LOG_LEVEL: 'loud' }), ConfigError);
  });
});
