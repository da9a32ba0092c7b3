import type { ReceivedMail } from '@paddock/testing';

/** The token of the link in a mail (quoted-printable soft breaks undone). */
export function tokenInMail(mail: ReceivedMail, page: string): string {
  const text = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = new RegExp(`/${page}\\?token=([A-Za-z0-9_-]+)`).exec(text);
  if (!match) throw new Error(`no /${page} link in the mail:\n${text}`);
  return match[1]!;
}
