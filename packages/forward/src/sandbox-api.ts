import { requestHeaders, type Target } from './credentials.js';
import { causeMessage, ForwardError } from './failure.js';

/** How long one API request may take before the command gives up. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** A key as the sandbox registered it. */
export interface RegisteredKey {
  id: string;
  type: string;
  fingerprint: string;
  comment: string;
  name: string;
  createdAt: string;
}

/** Where the embedded SSH server listens, and the host keys it presents when the sandbox tells them. */
export interface SshEndpoint {
  port: number;
  /** `<type> <base64>` lines; empty when the sandbox does not report its host keys. */
  hostKeys: string[];
}

/** A public key as known_hosts and authorized_keys hold it, without comment: `<type> <base64>`. */
const KEY_LINE = /^[a-z][a-z0-9@.-]{2,63} [A-Za-z0-9+/]+={0,3}$/;

/** Reads the answer of `GET /api/ssh-port`; anything malformed is a ForwardError. Pure. */
export function parseSshEndpoint(body: unknown): SshEndpoint {
  const { port, hostKeys } = (typeof body === 'object' && body !== null ? body : {}) as {
    port?: unknown;
    hostKeys?: unknown;
  };
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new ForwardError(`GET /api/ssh-port answered an invalid port ${JSON.stringify(port)}`);
  }
  if (hostKeys === undefined) return { port, hostKeys: [] };
  if (
    !Array.isArray(hostKeys) ||
    !hostKeys.every((k): k is string => typeof k === 'string' && KEY_LINE.test(k.trim()))
  ) {
    throw new ForwardError(
      'GET /api/ssh-port answered invalid hostKeys (want "<type> <base64>" lines)',
    );
  }
  return { port, hostKeys: hostKeys.map((k) => k.trim()) };
}

/** The absolute URL of an API path under the base URL (which may carry a routing prefix). */
export function apiUrl(target: Target, path: string): URL {
  return new URL(path.replace(/^\//, ''), target.url);
}

/** Hints for the statuses a person can fix, added to the sandbox's own message. */
function hint(status: number, path: string): string {
  if (status === 401) return ' (the credentials were refused or are missing: check them)';
  if (status === 403 && /ssh|port-forward/.test(path)) {
    return ' (SSH and tunnels need the editor or owner role in the workspace)';
  }
  if (status === 404 && /ssh/.test(path)) {
    return ' (is SSH enabled for this sandbox, and are the workspace, agent and replica right?)';
  }
  if (status === 404 && /port-forward/.test(path)) {
    return ' (is port forwarding enabled for this sandbox, and are the workspace, agent and replica right?)';
  }
  return '';
}

/** One line saying why a response is not the one expected, from the error envelope when there is one. */
export async function describeFailure(
  what: string,
  path: string,
  status: number,
  headers: Headers,
  bodyText: () => Promise<string>,
): Promise<string> {
  if (status >= 300 && status < 400) {
    return `${what} was redirected (${status} to ${headers.get('location') ?? '?'}): the routing service did not accept the credentials`;
  }
  let detail = '';
  try {
    const body = JSON.parse(await bodyText()) as { error?: unknown; message?: unknown };
    if (typeof body.message === 'string') detail = `: ${body.message}`;
  } catch {
    // Not the sandbox's envelope (a proxy's page, say): the status says enough.
  }
  return `${what} answered ${status}${detail}${hint(status, path)}`;
}

/** The few calls of the sandbox's human-facing API that paddock-forward makes. */
export class SandboxApi {
  constructor(readonly target: Target) {}

  private async request(method: string, path: string, body?: unknown): Promise<Response> {
    const url = apiUrl(this.target, path);
    const headers = requestHeaders(this.target);
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    try {
      return await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        // A login redirect means the credentials were refused; following it would only hide that.
        redirect: 'manual',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (err) {
      throw new ForwardError(`cannot reach ${url.origin}: ${causeMessage(err)}`);
    }
  }

  private async json<T>(
    method: string,
    path: string,
    expected: number[],
    body?: unknown,
  ): Promise<T> {
    const res = await this.request(method, path, body);
    const what = `${method} ${apiUrl(this.target, path).href}`;
    if (!expected.includes(res.status)) {
      throw new ForwardError(
        await describeFailure(what, path, res.status, res.headers, () => res.text()),
      );
    }
    try {
      return (await res.json()) as T;
    } catch {
      throw new ForwardError(`${what} answered ${res.status} without a JSON body`);
    }
  }

  /** The port of the embedded SSH server on the sandbox's loopback. */
  async sshPort(): Promise<number> {
    return (await this.sshEndpoint()).port;
  }

  /** The SSH server's port and, when the sandbox reports them, its host keys. */
  async sshEndpoint(): Promise<SshEndpoint> {
    return parseSshEndpoint(await this.json<unknown>('GET', '/api/ssh-port', [200]));
  }

  /** Registers a public key; one registered already (200) counts as registered. */
  async registerKey(publicKey: string, name: string): Promise<RegisteredKey> {
    const key = await this.json<RegisteredKey>('POST', '/api/ssh-authorized-keys', [200, 201], {
      publicKey,
      name,
    });
    if (typeof key.id !== 'string' || key.id === '') {
      throw new ForwardError('POST /api/ssh-authorized-keys answered without a key id');
    }
    return key;
  }

  /** Removes a key; one that is gone already (404) counts as removed. */
  async deleteKey(id: string): Promise<'deleted' | 'gone'> {
    const path = `/api/ssh-authorized-keys/${encodeURIComponent(id)}`;
    const res = await this.request('DELETE', path);
    if (res.status === 404 || (res.status >= 200 && res.status < 300)) {
      await res.body?.cancel();
      return res.status === 404 ? 'gone' : 'deleted';
    }
    const what = `DELETE ${apiUrl(this.target, path).href}`;
    throw new ForwardError(
      await describeFailure(what, path, res.status, res.headers, () => res.text()),
    );
  }
}
