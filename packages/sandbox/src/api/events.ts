import type { ServerResponse } from 'node:http';
import { env, EVENT_STREAM_HEADERS, loadConfig, type Logger } from '@paddock/common';
import { DEFAULT_WATCH_LINGER_MS, type SharedWatcher } from '../workspace/shared-watcher.js';
import type { ChangeEvent } from '../workspace/watcher.js';

/** Event streams open at once; each costs a socket and a subscription, so the next one gets 503. */
export const MAX_EVENT_STREAMS = 100;
/**
 * Bytes a stream may have queued unsent before it is dropped: a client that stopped reading would
 * otherwise hold every event in memory. Dropped, it reconnects with Last-Event-ID and resumes from
 * the ring. Room for a whole ring's replay (10,000 events of a few hundred bytes) is left, as the
 * replay is written at once.
 */
export const MAX_STREAM_BACKLOG_BYTES = 8 * 1024 * 1024;
/** Seconds between `: keepalive` comments when SVC_API_KEEPALIVE_SECONDS is not set. */
export const DEFAULT_KEEPALIVE_SECONDS = 15;

/** One change as a server-sent event: `id`, `event: change`, the change as JSON data. */
export function formatChange(event: ChangeEvent): string {
  const data = {
    type: event.type,
    kind: event.kind,
    path: event.path,
    ...(event.from !== undefined ? { from: event.from } : {}),
    time: event.time,
  };
  return `id: ${event.id}\nevent: change\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Tells a resuming client that events were lost (or its id is not this run's): refetch the tree. */
export function formatReset(lastId: number): string {
  const data = {
    reason: 'the events after Last-Event-ID are no longer kept; fetch the tree again',
  };
  return `id: ${lastId}\nevent: reset\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Sent once the stream is live (after any replay): carries the id to resume from. */
export function formatReady(lastId: number): string {
  return `id: ${lastId}\nevent: ready\ndata: ${JSON.stringify({ id: lastId })}\n\n`;
}

/**
 * Last-Event-ID as a number; undefined when absent, NaN when it is not one (a reset follows, as the
 * client's position is unknown).
 */
export function parseLastEventId(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  return /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
}

/**
 * SVC_API_WATCH_LINGER_SECONDS: how long the watcher outlives its last subscriber (tests shorten
 * it); DEFAULT_WATCH_LINGER_MS otherwise.
 */
export function watchLingerMs(environment: NodeJS.ProcessEnv = process.env): number {
  const config = loadConfig(
    {
      SVC_API_WATCH_LINGER_SECONDS: env.integer(DEFAULT_WATCH_LINGER_MS / 1000, {
        min: 0,
        max: 3600,
      }),
    },
    environment,
  );
  return config.SVC_API_WATCH_LINGER_SECONDS * 1000;
}

/**
 * The open event streams of /api/events, fed from the shared watcher's ring. The watcher runs
 * while at least one stream is open (and a short linger after), never otherwise.
 */
export class EventStreams {
  private readonly open = new Set<ServerResponse>();
  /** Streams waiting for the watcher's initial scan: they count against the bound too. */
  private starting = 0;

  constructor(
    private readonly watcher: SharedWatcher,
    private readonly keepAliveMs: number,
    private readonly logger: Logger,
  ) {}

  get full(): boolean {
    return this.open.size + this.starting >= MAX_EVENT_STREAMS;
  }

  /**
   * Starts a stream on a hijacked response, starting the watcher for the first subscriber:
   * replays what the client missed after `lastEventId` (or a reset), then `ready`, then every
   * change as it happens, and a reset whenever changes went unseen. Replay and subscription happen
   * in the same tick, so no event falls between them.
   */
  async start(res: ServerResponse, lastEventId: number | undefined): Promise<void> {
    this.starting++;
    let release: () => void;
    try {
      release = await this.watcher.acquire();
    } catch (err) {
      this.logger.warn({ err }, 'the workspace watcher did not start');
      if (!res.headersSent) {
        res.writeHead(503, { 'content-type': 'application/json; charset=utf-8' });
      }
      res.end(
        JSON.stringify({ error: 'unavailable', message: 'the workspace watcher did not start' }),
      );
      return;
    } finally {
      this.starting--;
    }
    // The client may have left while the watcher was getting ready.
    if (res.destroyed || !res.socket || res.socket.destroyed) return release();
    const ring = this.watcher.ring;
    res.writeHead(200, EVENT_STREAM_HEADERS);
    res.setTimeout(0);
    if (lastEventId !== undefined) {
      const missed = ring.since(lastEventId);
      if (missed === 'reset') res.write(formatReset(ring.lastId));
      else for (const event of missed) res.write(formatChange(event));
    }
    res.write(formatReady(ring.lastId));

    const send = (frame: string) => {
      if (res.writableEnded || res.destroyed) return; // ended by closeAll, its close not yet seen
      res.write(frame);
      if (res.writableLength > MAX_STREAM_BACKLOG_BYTES) {
        this.logger.warn('event stream dropped: the client is not reading');
        res.destroy();
      }
    };
    const unsubscribe = ring.subscribe(
      (event) => send(formatChange(event)),
      (lastId) => send(formatReset(lastId)),
    );
    const keepAlive = setInterval(() => send(': keepalive\n\n'), this.keepAliveMs);
    this.open.add(res);
    res.on('close', () => {
      unsubscribe();
      clearInterval(keepAlive);
      this.open.delete(res);
      release();
    });
  }

  /** Ends every stream cleanly (the listener is closing); clients see the stream finish. */
  closeAll(): void {
    for (const res of this.open) res.end();
  }
}
