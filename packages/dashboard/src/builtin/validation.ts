import { MAX_PASSWORD_CHARS } from './passwords.js';

/** Username length bounds, in characters after NFC normalisation. */
export const USERNAME_MIN_CHARS = 2;
export const USERNAME_MAX_CHARS = 64;
/** RFC 5321's limit on a forward path. */
export const EMAIL_MAX_CHARS = 254;
export const DISPLAY_NAME_MAX_CHARS = 128;

/** Letters and digits of any script, `.`, `_` and `-`; no `@`, so a username never reads as an e-mail. */
const USERNAME = /^[\p{L}\p{N}][\p{L}\p{N}\p{M}._-]*$/u;
const EMAIL = /^[^\s@<>"(),;:\\[\]]+@[^\s@<>"(),;:\\[\]]+\.[^\s@<>"(),;:\\[\]]+$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

export function checkUsername(value: unknown): Checked<string> {
  if (typeof value !== 'string') return { ok: false, message: 'username must be a string' };
  const username = value.normalize('NFC');
  const length = [...username].length;
  if (length < USERNAME_MIN_CHARS || length > USERNAME_MAX_CHARS) {
    return {
      ok: false,
      message: `username must be ${USERNAME_MIN_CHARS} to ${USERNAME_MAX_CHARS} characters`,
    };
  }
  if (!USERNAME.test(username)) {
    return {
      ok: false,
      message:
        'username may hold letters, digits, ".", "_" and "-", starting with a letter or digit',
    };
  }
  return { ok: true, value: username };
}

/** An e-mail address, lower-cased: addresses compare case-insensitively in practice. */
export function checkEmail(value: unknown): Checked<string> {
  if (typeof value !== 'string') return { ok: false, message: 'email must be a string' };
  if (value.length > EMAIL_MAX_CHARS || !EMAIL.test(value)) {
    return { ok: false, message: 'email must be an e-mail address' };
  }
  return { ok: true, value: value.toLowerCase() };
}

export function checkDisplayName(value: unknown): Checked<string | null> {
  if (value === undefined || value === null || value === '') return { ok: true, value: null };
  if (typeof value !== 'string') return { ok: false, message: 'displayName must be a string' };
  const name = value.normalize('NFC').trim();
  if ([...name].length > DISPLAY_NAME_MAX_CHARS || CONTROL.test(name)) {
    return {
      ok: false,
      message: `displayName must be at most ${DISPLAY_NAME_MAX_CHARS} printable characters`,
    };
  }
  return { ok: true, value: name === '' ? null : name };
}

/** The password, or why not; `tooShort` maps to the specification's password_too_short. */
export function checkPassword(
  value: unknown,
  minChars: number,
): { ok: true; value: string } | { ok: false; tooShort: boolean; message: string } {
  if (typeof value !== 'string') {
    return { ok: false, tooShort: false, message: 'password must be a string' };
  }
  const length = [...value].length;
  if (length < minChars) {
    return {
      ok: false,
      tooShort: true,
      message: `password must be at least ${minChars} characters`,
    };
  }
  if (length > MAX_PASSWORD_CHARS) {
    return {
      ok: false,
      tooShort: false,
      message: `password must be at most ${MAX_PASSWORD_CHARS} characters`,
    };
  }
  return { ok: true, value };
}
