import type { ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { SessionState } from './session.js';

/** At most this many MCP sessions at once; a further one is answered 503. */
export const MAX_SESSIONS = 500;
/** A Streamable HTTP session with no request for this long is ended (its shells killed). */
export const SESSION_IDLE_MS = 30 * 60_000;

export interface McpSession {
  id: string;
  kind: 'sse' | 'streamable';
  transport: Transport;
  server: Server;
  state: SessionState;
  lastSeen: number;
  /** The open event stream of an SSE session, dropped without a close frame at shutdown. */
  stream?: ServerResponse;
}

/** The live MCP sessions of the process, and their orderly end. */
export class McpSessions {
  private readonly sessions = new Map<string, McpSession>();
  private readonly ending = new Map<string, Promise<void>>();

  get size(): number {
    return this.sessions.size;
  }

  get full(): boolean {
    return this.sessions.size >= MAX_SESSIONS;
  }

  add(session: McpSession): void {
    this.sessions.set(session.id, session);
  }

  get(id: string, kind: McpSession['kind']): McpSession | undefined {
    const session = this.sessions.get(id);
    if (session?.kind !== kind) return undefined;
    session.lastSeen = Date.now();
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
  async endIdle(now = Date.now()): Promise<void> {
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
