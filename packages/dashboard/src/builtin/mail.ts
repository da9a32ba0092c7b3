import type { Logger } from '@paddock/common';
import { createTransport } from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The link the mail carries, logged instead of sent when no relay is configured. */
  link: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/** Mail through the relay of SVC_SMTP_URL. */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = createTransport(url);
  return {
    send: async (mail) => {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
    close: () => transport.close(),
  };
}

/** Without a relay (local use): the link is logged, so the person at the terminal can follow it. */
export function logMailer(logger: Logger): Mailer {
  return {
    send: (mail) => {
      logger.warn(
        { to: mail.to, subject: mail.subject, link: mail.link },
        'mail not sent (no SVC_SMTP_URL): follow the link',
      );
      return Promise.resolve();
    },
    close: () => {},
  };
}
