import type { ServerResponse } from 'node:http';
import type { Logger } from '@paddock/common';
import type { ChangeEvent, EventRing } from '../workspace/watcher.js';

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

/** The open event streams of /api/events, fed from the ring. */
export class EventStreams {
  private readonly open = new Set<ServerResponse>();

  constructor(
    private readonly ring: EventRing,
    private readonly keepAliveMs: number,
    private readonly logger: Logger,
  ) {}

  get full(): boolean {
    return this.open.size >= MAX_EVENT_STREAMS;
  }

  /**
   * Starts a stream on a hijacked response: replays what the client missed after `lastEventId`
   * (or a reset), then `ready`, then every change as it happens. Replay and subscription happen in
   * the same tick, so no event falls between them.
   */
  start(res: ServerResponse, lastEventId: number | undefined): void {
    // The client may have left while the watcher was getting ready.
    if (res.destroyed || !res.socket || res.socket.destroyed) return;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
    });
    res.setTimeout(0);
    if (lastEventId !== undefined) {
      const missed = this.ring.since(lastEventId);
      if (missed === 'reset') res.write(formatReset(this.ring.lastId));
      else for (const event of missed) res.write(formatChange(event));
    }
    res.write(formatReady(this.ring.lastId));

    const send = (frame: string) => {
      res.write(frame);
      if (res.writableLength > MAX_STREAM_BACKLOG_BYTES) {
        this.logger.warn('event stream dropped: the client is not reading');
        res.destroy();
      }
    };
    const unsubscribe = this.ring.subscribe((event) => send(formatChange(event)));
    const keepAlive = setInterval(() => send(': keepalive\n\n'), this.keepAliveMs);
    this.open.add(res);
    res.on('close', () => {
      unsubscribe();
      clearInterval(keepAlive);
      this.open.delete(res);
    });
  }

  /** Ends every stream cleanly (the listener is closing); clients see the stream finish. */
  closeAll(): void {
    for (const res of this.open) res.end();
  }
}
