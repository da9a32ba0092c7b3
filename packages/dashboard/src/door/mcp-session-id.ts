/**
 * MCP sessions through the dashboard stick to the replica that opened them without the dashboard
 * keeping any state: the session id a client sees is `<ordinal>.<the sandbox's id>`, so any
 * dashboard replica sends the next request of the session to the same pod. A client that makes up
 * an ordinal reaches only a pod it may use anyway, where the session does not exist.
 */

/** Longest session id taken from a client; the sandbox's are UUIDs. */
const MAX_SESSION_ID_CHARS = 200;
const STICKY = /^(\d{1,5})\.([\x21-\x7e]+)$/;

export function stickySessionId(ordinal: number, upstream: string): string {
  return `${ordinal}.${upstream}`;
}

/** The replica and the sandbox's own id of a session id the dashboard gave out. */
export function parseStickySessionId(
  id: string,
): { ordinal: number; upstream: string } | undefined {
  if (id.length > MAX_SESSION_ID_CHARS) return undefined;
  const match = STICKY.exec(id);
  if (match === null) return undefined;
  return { ordinal: Number(match[1]), upstream: match[2]! };
}

/** The ordinal of a StatefulSet pod `<agent>-<n>`, or undefined for a pod not named so. */
export function ordinalOf(agent: string, pod: string): number | undefined {
  const prefix = `${agent}-`;
  if (!pod.startsWith(prefix)) return undefined;
  const rest = pod.slice(prefix.length);
  return /^(0|[1-9]\d{0,4})$/.test(rest) ? Number(rest) : undefined;
}

/**
 * The `endpoint` event's data of the legacy SSE transport, made to lead back through the
 * dashboard: the sandbox says `/message?sessionId=<id>`; the client gets the path relative to
 * its `.../sse` URL (so a prefix in front of the dashboard is kept) with the sticky id. Undefined
 * when the data is not a message path with a session id.
 */
export function endpointThroughDoor(data: string, ordinal: number): string | undefined {
  let url: URL;
  try {
    url = new URL(data, 'http://sandbox');
  } catch {
    return undefined;
  }
  const id = url.searchParams.get('sessionId');
  if (url.pathname !== '/message' || id === null || id === '') return undefined;
  return `message?sessionId=${encodeURIComponent(stickySessionId(ordinal, id))}`;
}
