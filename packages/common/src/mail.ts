import { createRequire } from 'node:module';
import type * as Nodemailer from 'nodemailer';
import { z } from 'zod';
import type { Logger } from './logger.js';

/**
 * Mail, shared by the dashboard (account mails) and the operator (budget alerts): both read the
 * same two variables, so one relay serves the platform.
 */
export const mailEnv = {
  /** smtp:// or smtps:// URL of the mail relay (credentials in it); unset logs mails instead. */
  SVC_SMTP_URL: z
    .string()
    .optional()
    .refine((v) => v === undefined || /^smtps?:\/\/\S+$/.test(v), {
      message: 'must be an smtp:// or smtps:// URL',
    }),
  SVC_SMTP_FROM: z
    .string()
    .optional()
    .transform((v) => v ?? 'Paddock <no-reply@paddock.invalid>'),
};

export interface Mail {
  to: string | readonly string[];
  subject: string;
  text: string;
  /** A link the mail carries, logged when no relay is configured so the reader can follow it. */
  link?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

// nodemailer (about 4 MiB once loaded) is required on the first relay only: every service imports
// this package, and most never send mail.
const requireHere = createRequire(import.meta.url);
const loadNodemailer = () => requireHere('nodemailer') as typeof Nodemailer;

/** Mail through the relay of `url`. */
export function smtpMailer(url: string, from: string): Mailer {
  // Bounded waits: a relay that hangs must not hold a request or a reconcile for minutes.
  const transport = loadNodemailer().createTransport({
    url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    send: async (mail) => {
      const to = typeof mail.to === 'string' ? mail.to : mail.to.join(', ');
      await transport.sendMail({ from, to, subject: mail.subject, text: mail.text });
    },
    close: () => transport.close(),
  };
}

/** Without a relay (local use): the mail goes to the log, for the person at the terminal. */
export function logMailer(logger: Logger): Mailer {
  return {
    send: (mail) => {
      logger.warn(
        {
          to: mail.to,
          subject: mail.subject,
          ...(mail.link ? { link: mail.link } : { text: mail.text }),
        },
        'mail not sent (no SVC_SMTP_URL)',
      );
      return Promise.resolve();
    },
    close: () => {},
  };
}

/** The mailer the configuration asks for. */
export function mailerFrom(
  config: { SVC_SMTP_URL: string | undefined; SVC_SMTP_FROM: string },
  logger: Logger,
): Mailer {
  return config.SVC_SMTP_URL === undefined
    ? logMailer(logger)
    : smtpMailer(config.SVC_SMTP_URL, config.SVC_SMTP_FROM);
}
