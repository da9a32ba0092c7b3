import { once } from 'node:events';
import { SMTPServer } from 'smtp-server';
import { eventually } from './waiting.js';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The whole message as received: headers and body. */
  raw: string;
}

export interface RunningSmtp {
  url: string;
  mails: ReceivedMail[];
  /** The next mail to an address that was not looked at yet (waits for it). */
  nextMailTo: (address: string) => Promise<ReceivedMail>;
  stop: () => Promise<void>;
}

/** A real SMTP server on 127.0.0.1 that keeps every message it accepts. */
export async function startSmtp(): Promise<RunningSmtp> {
  const mails: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (raw += chunk));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    nextMailTo: (address) =>
      eventually(`a mail to ${address}`, () => {
        const mail = mails.find((m) => !taken.has(m) && m.to.includes(address));
        if (mail) taken.add(mail);
        return mail;
      }),
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
