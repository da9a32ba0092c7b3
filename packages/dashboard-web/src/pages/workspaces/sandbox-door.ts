/**
 * Addresses of an agent pod's sandbox through the dashboard's door
 * (`/api/workspaces/{ws}/agents/{agent}/pods/{pod}/sandbox/<sandbox route>`), and the sentences that
 * tell how a terminal ended. Pure: no imports, so tests run it as it is.
 */

export interface PodRef {
  workspace: string;
  agent: string;
  pod: string;
}

/** A sandbox route of the human API under the door: `api/tree`, `api/file`, `api/exec`, … */
export type SandboxRoute =
  'api/tree' | 'api/file' | 'api/events' | 'api/download' | 'api/exec' | 'api/port-forward';

const seg = (value: string) => encodeURIComponent(value);

/** The API path of one agent pod (`/api/workspaces/{ws}/agents/{agent}/pods/{pod}`), names encoded. */
export function podPath(ref: PodRef): string {
  return [
    '/api/workspaces',
    seg(ref.workspace),
    'agents',
    seg(ref.agent),
    'pods',
    seg(ref.pod),
  ].join('/');
}

/** The door path of a sandbox route, with its query (undefined values left out). */
export function doorPath(
  ref: PodRef,
  route: SandboxRoute,
  query: Record<string, string | number | undefined> = {},
): string {
  const base = `${podPath(ref)}/sandbox/${route}`;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return search === '' ? base : `${base}?${search}`;
}

/** The WebSocket address of a door path on the page's own host: ws:// under http, wss:// under https. */
export function socketUrl(page: { protocol: string; host: string }, path: string): string {
  return `${page.protocol === 'https:' ? 'wss:' : 'ws:'}//${page.host}${path}`;
}

/** The terminal's `{"type":"exit"}` message, when a text frame is one. */
export interface ExitMessage {
  code: number;
  signal: string | null;
}

export function parseExitMessage(text: string): ExitMessage | undefined {
  try {
    const message = JSON.parse(text) as { type?: unknown; code?: unknown; signal?: unknown };
    if (message.type !== 'exit' || typeof message.code !== 'number') return undefined;
    return {
      code: message.code,
      signal: typeof message.signal === 'string' ? message.signal : null,
    };
  } catch {
    return undefined;
  }
}

/**
 * How a terminal session ended, for the person looking at it: the shell's exit when the sandbox
 * reported it, else the WebSocket's close code and reason.
 */
export function endSentence(
  exit: ExitMessage | undefined,
  close: { code: number; reason: string },
  opened: boolean,
): string {
  if (exit !== undefined) {
    return exit.signal === null
      ? `The shell exited with code ${exit.code}.`
      : `The shell was ended by ${exit.signal} (exit code ${exit.code}).`;
  }
  const reason = close.reason.trim() === '' ? '' : `: ${close.reason.trim()}`;
  if (!opened) {
    return `The terminal could not be opened${reason === '' ? '' : reason}.`;
  }
  switch (close.code) {
    case 1000:
      return `The terminal closed${reason}.`;
    case 1001:
      return `The sandbox is shutting down${reason === '' ? '' : ` (${close.reason.trim()})`}: its pod is stopping or restarting.`;
    case 1006:
      return 'The connection to the terminal was lost (the network, the dashboard or the pod went away).';
    default:
      return `The terminal closed with code ${close.code}${reason}.`;
  }
}
