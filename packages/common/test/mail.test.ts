import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig, mailEnv, mailerFrom, silentLogger } from '@paddock/common';
import { startSmtp, type RunningSmtp } from '@paddock/testing';

describe('mail', () => {
  let smtp: RunningSmtp;
  before(async () => (smtp = await startSmtp()));
  after(() => smtp.stop());

  it('reads the relay and the sender, with a default sender', () => {
    assert.deepEqual(loadConfig(mailEnv, {}), {
      SVC_SMTP_URL: undefined,
      SVC_SMTP_FROM: 'Paddock <no-reply@paddock.invalid>',
    });
    assert.throws(
      () => loadConfig(mailEnv, { SVC_SMTP_URL: 'http://relay.example.com' }),
      (err: unknown) =>
        err instanceof ConfigError &&
        /SVC_SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/.test(err.message),
    );
  });

  it('sends to every recipient through the configured relay', async () => {
    const mailer = mailerFrom(
      loadConfig(mailEnv, { SVC_SMTP_URL: smtp.url, SVC_SMTP_FROM: 'ops@paddock.invalid' }),
      silentLogger(),
    );
    await mailer.send({ to: ['a@example.com', 'b@example.com'], subject: 'Hello', text: 'Body' });
    mailer.close();
    const mail = await smtp.nextMailTo('b@example.com');
    assert.deepEqual(mail.to, ['a@example.com', 'b@example.com']);
    assert.equal(mail.from, 'ops@paddock.invalid');
    assert.match(mail.raw, /Subject: Hello/);
  });

  it('fails clearly when the relay cannot be reached', async () => {
    const mailer = mailerFrom(
      loadConfig(mailEnv, { SVC_SMTP_URL: 'smtp://127.0.0.1:1' }),
      silentLogger(),
    );
    await assert.rejects(
      mailer.send({ to: 'a@example.com', subject: 'x', text: 'y' }),
      /ECONNREFUSED/,
    );
    mailer.close();
  });
});
