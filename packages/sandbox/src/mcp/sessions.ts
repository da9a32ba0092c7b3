import type { ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { SessionState } from './session.js';

/**
 * At most this many MCP sessions at once in the process. At the bound, a new session still opens:
 * the least recently used session of the client holding the most sessions is ended for it.
 */
export const MAX_SESSIONS = 500;
/**
 * Sessions one client (one remote address) may hold at once; its next session ends its least
 * recently used one. An agent needs one or two; a client running agents side by side (the local
 * platform's agents all come from loopback) dozens; a client that never closes its sessions only
 * ever recycles its own.
 */
export const MAX_SESSIONS_PER_CLIENT = 64;
/** A Streamable HTTP session with no request for this long is ended (its shells killed). */
export const SESSION_IDLE_MS = 5 * 60_000;
/** How often idle sessions are looked for: an idle session lives at most this much longer. */
export const IDLE_SWEEP_MS = 30_000;

/** What the eviction decision needs to know of a session. */
export interface SessionSlot {
  id: string;
  client: string;
  lastSeen: number;
}

export interface SessionLimits {
  perClient: number;
  total: number;
}

/**
 * The sessions to end so that `client` can open one more: its own least recently used ones beyond
 * `perClient - 1`, then, while the process would exceed `total`, the least recently used session of
 * the client that holds the most (its fair share is the smallest), so one client cannot lock out
 * the rest. Pure.
 */
export function sessionsToEvict(
  slots: readonly SessionSlot[],
  client: string,
  limits: SessionLimits = { perClient: MAX_SESSIONS_PER_CLIENT, total: MAX_SESSIONS },
): string[] {
  const byAge = [...slots].sort((a, b) => a.lastSeen - b.lastSeen);
  const evicted = new Set<string>();
  const own = byAge.filter((s) => s.client === client);
  for (const slot of own.slice(0, Math.max(0, own.length - limits.perClient + 1))) {
    evicted.add(slot.id);
  }
  let remaining = byAge.filter((s) => !evicted.has(s.id));
  while (remaining.length >= limits.total && remaining.length > 0) {
    const counts = new Map<string, number>();
    for (const s of remaining) counts.set(s.client, (counts.get(s.client) ?? 0) + 1);
    const most = Math.max(...counts.values());
    // The oldest session among the biggest holders (remaining is sorted oldest first).
    const victim = remaining.find((s) => counts.get(s.client) === most)!;
    evicted.add(victim.id);
    remaining = remaining.filter((s) => s.id !== victim.id);
  }
  return [...evicted];
}

export interface McpSession {
  id: string;
  kind: 'sse' | 'streamable';
  transport: Transport;
  server: Server;
  state: SessionState;
  /** Who opened it: the remote address (see MAX_SESSIONS_PER_CLIENT). */
  client: string;
  lastSeen: number;
  /** The open event stream of an SSE session, dropped without a close frame at shutdown. */
  stream?: ServerResponse;
}

/** The live MCP sessions of the process, and their orderly end. */
export class McpSessions {
  private readonly sessions = new Map<string, McpSession>();
  private readonly ending = new Map<string, Promise<void>>();

  constructor(
    /** The clock of lastSeen and idle expiry (tests inject one). */
    readonly now: () => number = Date.now,
    private readonly limits: SessionLimits = {
      perClient: MAX_SESSIONS_PER_CLIENT,
      total: MAX_SESSIONS,
    },
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  /** Sessions `client` holds now. */
  countOf(client: string): number {
    let n = 0;
    for (const s of this.sessions.values()) if (s.client === client) n++;
    return n;
  }

  /**
   * Ends what must end for `client` to open a session (see sessionsToEvict); returns their ids.
   * The sessions leave the table at once; their shells are killed in the background.
   */
  makeRoom(client: string): string[] {
    const ids = sessionsToEvict([...this.sessions.values()], client, this.limits);
    for (const id of ids) void this.end(id);
    return ids;
  }

  /** Adds a session, first ending what must end to make room for it; returns the ids ended. */
  add(session: McpSession): string[] {
    const evicted = this.makeRoom(session.client);
    this.sessions.set(session.id, session);
    return evicted;
  }

  get(id: string, kind: McpSession['kind']): McpSession | undefined {
    const session = this.sessions.get(id);
    if (session?.kind !== kind) return undefined;
    session.lastSeen = this.now();
    return session;
  }

  /** Ends a session once: closes its transport, cancels its calls, kills its shells. */
  end(id: string): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return this.ending.get(id) ?? Promise.resolve();
    this.sessions.delete(id);
    const done = (async () => {
      // Closing the server aborts the session's running tool calls; disposing kills its shells.
      await session.server.close().catch(() => {});
      await session.state.dispose();
    })().finally(() => this.ending.delete(id));
    this.ending.set(id, done);
    return done;
  }

  /** Ends the Streamable HTTP sessions nobody has used for SESSION_IDLE_MS. */
  async endIdle(now = this.now()): Promise<void> {
    const idle = [...this.sessions.values()].filter(
      (s) => s.kind === 'streamable' && now - s.lastSeen > SESSION_IDLE_MS,
    );
    await Promise.all(idle.map((s) => this.end(s.id)));
  }

  /** Shutdown: drops every event stream without a close frame, then ends every session. */
  async endAll(): Promise<void> {
    for (const session of this.sessions.values()) session.stream?.destroy();
    await Promise.all([...this.sessions.keys()].map((id) => this.end(id)));
    await Promise.all(this.ending.values());
  }
}
