import { Transform, type TransformCallback } from 'node:stream';
import { endpointThroughDoor } from './mcp-session-id.js';

/** Most bytes read while looking for the first event before giving up on rewriting it. */
const MAX_FIRST_EVENT_BYTES = 16 * 1024;

/** Where the first event ends (after its blank line), in bytes; undefined while it has not. */
function endOfFirstEvent(bytes: Buffer): number | undefined {
  const ends = [
    [bytes.indexOf('\n\n'), 2],
    [bytes.indexOf('\r\n\r\n'), 4],
  ].filter(([at]) => at! >= 0) as [number, number][];
  if (ends.length === 0) return undefined;
  const [at, length] = ends.reduce((a, b) => (a[0] <= b[0] ? a : b));
  return at + length;
}

/**
 * The legacy SSE stream of a replica's MCP server, its first `endpoint` event leading back through
 * the dashboard (see endpointThroughDoor); every later byte passes as it comes, unbuffered.
 */
export class EndpointRewrite extends Transform {
  private pending: Buffer | undefined = Buffer.alloc(0);

  constructor(private readonly ordinal: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.pending === undefined) return done(null, chunk);
    const seen = Buffer.concat([this.pending, chunk]);
    const eventEnd = endOfFirstEvent(seen);
    if (eventEnd === undefined) {
      if (seen.length > MAX_FIRST_EVENT_BYTES) return this.passOn(seen, done);
      this.pending = seen;
      return done();
    }
    const event = this.rewrite(seen.subarray(0, eventEnd).toString('utf8'));
    this.pending = undefined;
    done(null, Buffer.concat([Buffer.from(event, 'utf8'), seen.subarray(eventEnd)]));
  }

  override _flush(done: TransformCallback): void {
    if (this.pending !== undefined && this.pending.length > 0) this.push(this.pending);
    done();
  }

  private passOn(seen: Buffer, done: TransformCallback): void {
    this.pending = undefined;
    done(null, seen);
  }

  /** The event with its data rewritten when it is the endpoint event; as it was otherwise. */
  private rewrite(event: string): string {
    const lines = event.split(/\r?\n/);
    if (!lines.some((l) => l === 'event: endpoint' || l === 'event:endpoint')) return event;
    return lines
      .map((line) => {
        const match = /^data: ?(.*)$/.exec(line);
        if (match === null) return line;
        return `data: ${endpointThroughDoor(match[1]!, this.ordinal) ?? match[1]}`;
      })
      .join('\n');
  }
}
