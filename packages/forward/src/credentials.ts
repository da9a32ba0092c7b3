import { readFile, stat } from 'node:fs/promises';
import { UsageError } from '@paddock/common';
import type { TargetFlags } from './command-line.js';
import {
  checkObjectName,
  DEFAULT_REPLICA,
  parseReplica,
  sandboxBaseUrl,
  type DashboardAgent,
} from './dashboard.js';
import { ForwardError } from './failure.js';

/**
 * How to reach the sandbox through the routing service in front of it, and the credentials that
 * service wants. Precedence, setting by setting: the flags, then the credentials file, then the
 * environment. The file outranks the environment because it is named explicitly (ssh-setup puts
 * it in the ProxyCommand), while the environment is ambient and may be meant for another sandbox.
 */
export interface Target {
  /** The human-facing API's base URL, ending in `/` (for an agent: its door in the dashboard). */
  url: string;
  token: string | undefined;
  cookie: string | undefined;
  /** The dashboard API key, sent as X-API-Key (dashboard form only). */
  apiKey: string | undefined;
  /** Extra headers by name as given (identity headers for a local sandbox, a proxy's API key...). */
  headers: Record<string, string>;
  /** Set when the target was given as a dashboard agent (`url` is then built from it). */
  agent: DashboardAgent | undefined;
}

/** The credentials file; ssh-setup also keeps the registered key there (`sshKey`). */
export interface CredentialsFile {
  url?: string;
  dashboard?: string;
  workspace?: string;
  agent?: string;
  replica?: number;
  apiKey?: string;
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
export const ENV_DASHBOARD_URL = 'PADDOCK_DASHBOARD_URL';
export const ENV_WORKSPACE = 'PADDOCK_WORKSPACE';
export const ENV_AGENT = 'PADDOCK_AGENT';
export const ENV_API_KEY = 'PADDOCK_API_KEY';

/** The header the dashboard reads an API key from. */
export const API_KEY_HEADER = 'X-API-Key';

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
export function normalizeBaseUrl(text: string, flag = '--url'): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${flag} must be an http:// or https:// URL, not "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${flag} must be an http:// or https:// URL, not "${text}"`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new UsageError(
      `${flag} must not hold credentials; use ${flag === '--url' ? '--token, --cookie or --header' : '--api-key'}`,
    );
  }
  if (url.search !== '' || url.hash !== '') {
    throw new UsageError(`${flag} must not have a query or a fragment`);
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
  for (const key of [
    'url',
    'dashboard',
    'workspace',
    'agent',
    'apiKey',
    'token',
    'cookie',
  ] as const) {
    const value = o[key];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw bad(`"${key}" must be a string`);
    file[key] = value;
  }
  if (o.replica !== undefined) {
    if (typeof o.replica !== 'number' || !Number.isInteger(o.replica) || o.replica < 0) {
      throw bad('"replica" must be a whole number from 0');
    }
    file.replica = o.replica;
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

/** Flags of the dashboard form: given with --url they are a mistake, not something to ignore. */
const DASHBOARD_FLAGS = ['workspace', 'agent', 'replica', 'apiKey'] as const;
const FLAG_NAMES: Record<(typeof DASHBOARD_FLAGS)[number], string> = {
  workspace: '--workspace',
  agent: '--agent',
  replica: '--replica',
  apiKey: '--api-key',
};

/**
 * Which form the target takes: the first layer (flags, file, environment) that names a URL or a
 * dashboard decides, so that `--dashboard` on the command line outranks a stored `url` and the
 * other way round. A layer naming both is ambiguous and refused.
 */
export function targetForm(
  flags: TargetFlags,
  file: CredentialsFile,
  env: NodeJS.ProcessEnv,
): 'url' | 'dashboard' {
  const given = (v: string | undefined) => v !== undefined && v !== '';
  const layers: Array<[string, string | undefined, string | undefined]> = [
    ['--url and --dashboard', flags.url, flags.dashboard],
    ['the credentials file\'s "url" and "dashboard"', file.url, file.dashboard],
    [`${ENV_URL} and ${ENV_DASHBOARD_URL}`, env[ENV_URL], env[ENV_DASHBOARD_URL]],
  ];
  for (const [names, url, dashboard] of layers) {
    if (given(url) && given(dashboard)) {
      throw new UsageError(`${names} exclude each other: give one`);
    }
    if (given(url)) return 'url';
    if (given(dashboard)) return 'dashboard';
  }
  throw new UsageError(
    `the target is missing: give --dashboard URL --workspace WS --agent NAME --api-key KEY ` +
      `(or ${ENV_DASHBOARD_URL}, ${ENV_WORKSPACE}, ${ENV_AGENT}, ${ENV_API_KEY}), ` +
      `or the sandbox's own --url (or ${ENV_URL}), or a credentials file with them`,
  );
}

/** Merges flags, file and environment (see Target for the order). Pure. */
export function resolveTarget(
  flags: TargetFlags,
  file: CredentialsFile,
  env: NodeJS.ProcessEnv,
): Target {
  const pick = (...values: Array<string | undefined>) =>
    values.find((v) => v !== undefined && v !== '');
  const form = targetForm(flags, file, env);
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

  if (form === 'url') {
    for (const flag of DASHBOARD_FLAGS) {
      if (flags[flag] !== undefined) {
        throw new UsageError(`${FLAG_NAMES[flag]} only goes with --dashboard`);
      }
    }
    const url = pick(flags.url, file.url, env[ENV_URL])!;
    // The API key stays out of the --url form: an ambient PADDOCK_API_KEY must never reach
    // whatever proxy a URL names.
    return {
      url: normalizeBaseUrl(url),
      token,
      cookie,
      apiKey: undefined,
      headers,
      agent: undefined,
    };
  }

  const workspace = pick(flags.workspace, file.workspace, env[ENV_WORKSPACE]);
  const agentName = pick(flags.agent, file.agent, env[ENV_AGENT]);
  if (workspace === undefined) {
    throw new UsageError(`the workspace is missing: give --workspace or ${ENV_WORKSPACE}`);
  }
  if (agentName === undefined) {
    throw new UsageError(`the agent is missing: give --agent or ${ENV_AGENT}`);
  }
  const replicaText = pick(flags.replica) ?? file.replica;
  const agent: DashboardAgent = {
    dashboard: normalizeBaseUrl(
      pick(flags.dashboard, file.dashboard, env[ENV_DASHBOARD_URL])!,
      '--dashboard',
    ),
    workspace: checkObjectName('--workspace', workspace),
    agent: checkObjectName('--agent', agentName),
    replica: replicaText === undefined ? DEFAULT_REPLICA : parseReplica(replicaText),
  };
  const apiKey = pick(flags.apiKey, file.apiKey, env[ENV_API_KEY]);
  if (apiKey !== undefined) checkHeaderValue('the API key', apiKey);
  if (apiKey === undefined && token === undefined && cookie === undefined) {
    throw new UsageError(
      `the API key is missing: give --api-key, a credentials file with "apiKey", or ${ENV_API_KEY}`,
    );
  }
  return { url: sandboxBaseUrl(agent), token, cookie, apiKey, headers, agent };
}

/** The headers of every request and WebSocket handshake to the sandbox. */
export function requestHeaders(target: Target): Record<string, string> {
  const headers: Record<string, string> = { ...target.headers };
  if (target.apiKey !== undefined) headers[API_KEY_HEADER] = target.apiKey;
  if (target.token !== undefined) headers.Authorization = `Bearer ${target.token}`;
  if (target.cookie !== undefined) headers.Cookie = target.cookie;
  return headers;
}

/** The credentials file to store for a target (ssh-setup adds the key). */
export function credentialsFileOf(target: Target): CredentialsFile {
  const file: CredentialsFile =
    target.agent === undefined
      ? { url: target.url }
      : {
          dashboard: target.agent.dashboard,
          workspace: target.agent.workspace,
          agent: target.agent.agent,
          replica: target.agent.replica,
        };
  if (target.apiKey !== undefined) file.apiKey = target.apiKey;
  if (target.token !== undefined) file.token = target.token;
  if (target.cookie !== undefined) file.cookie = target.cookie;
  if (Object.keys(target.headers).length > 0) file.headers = { ...target.headers };
  return file;
}
