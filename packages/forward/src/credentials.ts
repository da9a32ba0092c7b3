import { readFile, stat } from 'node:fs/promises';
import { UsageError } from '@paddock/common';
import type { TargetFlags } from './command-line.js';
import { ForwardError } from './failure.js';

/**
 * How to reach the sandbox through the routing service in front of it, and the credentials that
 * service wants. Precedence, setting by setting: the flags, then the credentials file, then the
 * environment. The file outranks the environment because it is named explicitly (ssh-setup puts
 * it in the ProxyCommand), while the environment is ambient and may be meant for another sandbox.
 */
export interface Target {
  /** The human-facing API's base URL, ending in `/`. */
  url: string;
  token: string | undefined;
  cookie: string | undefined;
  /** Extra headers by name as given (identity headers for a local sandbox, a proxy's API key...). */
  headers: Record<string, string>;
}

/** The credentials file; ssh-setup also keeps the registered key there (`sshKey`). */
export interface CredentialsFile {
  url?: string;
  token?: string;
  cookie?: string;
  headers?: Record<string, string>;
  sshKey?: { id: string; fingerprint: string; keyFile: string };
}

export const ENV_URL = 'PADDOCK_FORWARD_URL';
export const ENV_TOKEN = 'PADDOCK_FORWARD_TOKEN';
export const ENV_COOKIE = 'PADDOCK_FORWARD_COOKIE';
/** Extra headers, one `Name: value` per line. */
export const ENV_HEADERS = 'PADDOCK_FORWARD_HEADERS';

/** File mode bits for group and others: a credentials file must have none of them. */
const GROUP_OTHER_BITS = 0o077;

/** RFC 9110 token characters: what a header name may hold. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `Name: value` from --header. */
export function parseHeader(raw: string): [string, string] {
  const colon = raw.indexOf(':');
  const name = colon === -1 ? '' : raw.slice(0, colon).trim();
  const value = colon === -1 ? '' : raw.slice(colon + 1).trim();
  if (!HEADER_NAME.test(name)) {
    throw new UsageError(`--header must be "Name: value", not "${raw}"`);
  }
  checkHeaderValue(`--header ${name}`, value);
  return [name, value];
}

function checkHeaderValue(what: string, value: string): void {
  if (/[\r\n\0]/.test(value)) throw new UsageError(`${what} must not contain line breaks`);
}

/** The base URL: http or https, no credentials, query or fragment in it; always ending in `/`. */
export function normalizeBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--url must be an http:// or https:// URL, not "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--url must be an http:// or https:// URL, not "${text}"`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new UsageError('--url must not hold credentials; use --token, --cookie or --header');
  }
  if (url.search !== '' || url.hash !== '') {
    throw new UsageError('--url must not have a query or a fragment');
  }
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url.href;
}

/** The settings of a parsed credentials file; anything malformed is named. */
export function parseCredentialsFile(text: string, path: string): CredentialsFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ForwardError(`credentials file ${path} is not JSON: ${(err as Error).message}`);
  }
  const bad = (what: string) => new ForwardError(`credentials file ${path}: ${what}`);
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw bad('must hold a JSON object');
  const o = data as Record<string, unknown>;
  const file: CredentialsFile = {};
  for (const key of ['url', 'token', 'cookie'] as const) {
    const value = o[key];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw bad(`"${key}" must be a string`);
    file[key] = value;
  }
  if (o.headers !== undefined) {
    if (typeof o.headers !== 'object' || o.headers === null || Array.isArray(o.headers)) {
      throw bad('"headers" must be an object of strings');
    }
    file.headers = {};
    for (const [name, value] of Object.entries(o.headers)) {
      if (!HEADER_NAME.test(name) || typeof value !== 'string' || /[\r\n\0]/.test(value)) {
        throw bad(`header "${name}" must be a header name with a one-line string value`);
      }
      file.headers[name] = value;
    }
  }
  if (o.sshKey !== undefined) {
    const key = o.sshKey as Record<string, unknown> | null;
    if (
      typeof key !== 'object' ||
      key === null ||
      typeof key.id !== 'string' ||
      typeof key.keyFile !== 'string' ||
      typeof key.fingerprint !== 'string'
    ) {
      throw bad('"sshKey" must be {"id", "fingerprint", "keyFile"}');
    }
    file.sshKey = { id: key.id, fingerprint: key.fingerprint, keyFile: key.keyFile };
  }
  return file;
}

/** Whether a file mode lets group or others read or write (the file then holds no secret safely). */
export function exposedMode(mode: number): boolean {
  return (mode & GROUP_OTHER_BITS) !== 0;
}

/** Reads a credentials file, refusing one that group or others may read. */
export async function readCredentialsFile(path: string): Promise<CredentialsFile> {
  let mode: number;
  let text: string;
  try {
    mode = (await stat(path)).mode;
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new ForwardError(`cannot read credentials file ${path}: ${(err as Error).message}`);
  }
  if (exposedMode(mode)) {
    const octal = (mode & 0o777).toString(8).padStart(4, '0');
    throw new ForwardError(
      `credentials file ${path} is accessible to group or others (mode ${octal}); run "chmod 600 ${path}"`,
    );
  }
  return parseCredentialsFile(text, path);
}

/** Merges flags, file and environment (see Target for the order). Pure. */
export function resolveTarget(
  flags: TargetFlags,
  file: CredentialsFile,
  env: NodeJS.ProcessEnv,
): Target {
  const pick = (...values: Array<string | undefined>) =>
    values.find((v) => v !== undefined && v !== '');
  const url = pick(flags.url, file.url, env[ENV_URL]);
  if (url === undefined) {
    throw new UsageError(
      `the sandbox URL is missing: give --url, a credentials file with "url", or ${ENV_URL}`,
    );
  }
  const token = pick(flags.token, file.token, env[ENV_TOKEN]);
  const cookie = pick(flags.cookie, file.cookie, env[ENV_COOKIE]);
  if (token !== undefined) checkHeaderValue('the token', token);
  if (cookie !== undefined) checkHeaderValue('the cookie', cookie);

  // Header names are case-insensitive: a file's header replaces the environment's of the same
  // name, and a flag's replaces both.
  const headers: Record<string, string> = {};
  const setHeader = (name: string, value: string) => {
    for (const existing of Object.keys(headers)) {
      if (existing.toLowerCase() === name.toLowerCase()) delete headers[existing];
    }
    headers[name] = value;
  };
  const fromEnv = (env[ENV_HEADERS] ?? '').split(/\r?\n/).filter((line) => line.trim() !== '');
  for (const raw of fromEnv) setHeader(...parseHeader(raw));
  for (const [name, value] of Object.entries(file.headers ?? {})) setHeader(name, value);
  for (const raw of flags.headers) setHeader(...parseHeader(raw));
  return { url: normalizeBaseUrl(url), token, cookie, headers };
}

/** The headers of every request and WebSocket handshake to the sandbox. */
export function requestHeaders(target: Target): Record<string, string> {
  const headers: Record<string, string> = { ...target.headers };
  if (target.token !== undefined) headers.Authorization = `Bearer ${target.token}`;
  if (target.cookie !== undefined) headers.Cookie = target.cookie;
  return headers;
}

/** The credentials file to store for a target (ssh-setup adds the key). */
export function credentialsFileOf(target: Target): CredentialsFile {
  const file: CredentialsFile = { url: target.url };
  if (target.token !== undefined) file.token = target.token;
  if (target.cookie !== undefined) file.cookie = target.cookie;
  if (Object.keys(target.headers).length > 0) file.headers = { ...target.headers };
  return file;
}
