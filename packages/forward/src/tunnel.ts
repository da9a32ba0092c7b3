import type { Readable, Writable } from 'node:stream';
import WebSocket from 'ws';
import { requestHeaders, type Target } from './credentials.js';
import { causeMessage, ForwardError } from './failure.js';
import { describeFailure } from './sandbox-api.js';

/** How long the WebSocket handshake may take. */
export const HANDSHAKE_TIMEOUT_MS = 30_000;
/** Bytes queued on the socket above which the input is paused... */
export const HIGH_WATER_BYTES = 1024 * 1024;
/** ...and below which it flows again. */
export const LOW_WATER_BYTES = 256 * 1024;
/** An error page is read up to this size for its message. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** Close codes that mean the tunnel ended as it should: normal, or no code given. */
const NORMAL_CLOSE_CODES = new Set([1000, 1005]);
/** The tunnel's one text frame, both ways: the sender has finished sending (a TCP half-close). */
export const EOF_FRAME = 'eof';

/** ws:// or wss:// for the port-forward route under the base URL. */
export function tunnelUrl(target: Target, port: number): string {
  const url = new URL(`api/port-forward?port=${port}`, target.url);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}

/**
 * An open tunnel. What arrives between the handshake and pipeTunnel taking over is kept here: ws
 * may deliver the first frames (an SSH server's banner, sent as soon as it is connected) in the
 * same tick as `open`, before whoever awaited the tunnel can listen.
 */
export interface Tunnel {
  ws: WebSocket;
  early: Array<{ data: Buffer; isBinary: boolean }>;
  closed: { code: number; reason: Buffer } | undefined;
  /** Stops keeping early frames (pipeTunnel calls it as it starts listening itself). */
  detach: () => void;
}

/** Opens a tunnel to the sandbox's 127.0.0.1:port; a refusal says why in one line. */
export function openTunnel(target: Target, port: number): Promise<Tunnel> {
  const url = tunnelUrl(target, port);
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, {
      headers: requestHeaders(target),
      handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
      // The bytes are usually encrypted already (SSH, TLS): compressing them costs and saves nothing.
      perMessageDeflate: false,
      followRedirects: false,
    });
    let settled = false;
    // Set once the server answered without upgrading: its answer, not the abort, is the reason.
    let refused = false;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      reject(new ForwardError(message));
    };
    const tunnel: Tunnel = { ws, early: [], closed: undefined, detach: () => {} };
    const keep = (data: Buffer, isBinary: boolean) => tunnel.early.push({ data, isBinary });
    const noteClose = (code: number, reason: Buffer) => (tunnel.closed = { code, reason });
    tunnel.detach = () => {
      ws.off('message', keep);
      ws.off('close', noteClose);
    };
    ws.on('message', keep);
    ws.once('open', () => {
      settled = true;
      ws.once('close', noteClose);
      resolve(tunnel);
    });
    ws.on('unexpected-response', (req, res) => {
      refused = true;
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < MAX_ERROR_BODY_BYTES) chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', () => {
        const headers = new Headers();
        const location = res.headers.location;
        if (location !== undefined) headers.set('location', location);
        const path = new URL(url).pathname;
        void describeFailure(`the tunnel to port ${port}`, path, res.statusCode ?? 0, headers, () =>
          Promise.resolve(Buffer.concat(chunks).toString('utf8')),
        ).then(fail);
        req.destroy();
      });
      res.on('error', () => fail(`the tunnel to port ${port} answered ${res.statusCode}`));
    });
    ws.on('error', (err) => {
      if (!refused) fail(`cannot open the tunnel to port ${port}: ${causeMessage(err)}`);
    });
    ws.on('close', (code) => {
      if (!refused) fail(`the tunnel to port ${port} closed during its handshake (${code})`);
    });
  });
}

export interface TunnelEnd {
  code: number;
  reason: string;
  /** The tunnel ended as it should (close code 1000, or none). */
  normal: boolean;
}

/**
 * Pipes a stream pair through an open tunnel until it closes: input chunks become binary frames,
 * binary frames are written to output. Both directions respect backpressure: the input pauses while
 * the socket holds more than HIGH_WATER_BYTES unsent, and the tunnel pauses while output's write()
 * says to wait. Each direction's end travels as the "eof" frame: the input's end sends it and the
 * answer keeps flowing; the target's "eof" ends the output when `endOutput` (a TCP socket gets its
 * FIN), and otherwise (stdout, which stays open for the process) closes the tunnel. The tunnel's
 * close ends the output when `endOutput`.
 */
export function pipeTunnel(
  tunnel: Tunnel,
  input: Readable,
  output: Writable,
  options: { endOutput: boolean },
): Promise<TunnelEnd> {
  const { ws } = tunnel;
  return new Promise((resolve) => {
    let inputPaused = false;
    let waitingForDrain = false;
    let failure: string | undefined;

    const afterSend = (err?: Error) => {
      if (err || !inputPaused || ws.bufferedAmount > LOW_WATER_BYTES) return;
      inputPaused = false;
      input.resume();
    };
    const onData = (chunk: Buffer) => {
      if (ws.readyState !== WebSocket.OPEN) return;
      ws.send(chunk, { binary: true }, afterSend);
      if (!inputPaused && ws.bufferedAmount > HIGH_WATER_BYTES) {
        inputPaused = true;
        input.pause();
      }
    };
    let inputEnded = false;
    const closeTunnel = () => {
      // Queued frames go out before the close frame.
      if (ws.readyState === WebSocket.OPEN) ws.close(1000);
    };
    // The input finished: the target gets FIN, and what it still answers is delivered.
    const endInput = () => {
      if (inputEnded) return;
      inputEnded = true;
      if (ws.readyState === WebSocket.OPEN) ws.send(EOF_FRAME, { binary: false });
    };
    // Closed without an end (destroyed, an error): nothing more will come either way.
    const onInputClose = () => {
      if (!inputEnded) closeTunnel();
    };
    const onError = (err: Error) => {
      failure ??= err.message;
      closeTunnel();
    };
    const onMessage = (data: Buffer, isBinary: boolean) => {
      if (!isBinary) {
        // The target finished sending; the server closes the tunnel once both sides have.
        if (data.toString('utf8') !== EOF_FRAME) return;
        if (options.endOutput) output.end();
        else closeTunnel();
        return;
      }
      if (!output.write(data) && !waitingForDrain) {
        waitingForDrain = true;
        ws.pause();
        output.once('drain', () => {
          waitingForDrain = false;
          ws.resume();
        });
      }
    };
    const onClose = (code: number, reason: Buffer) => {
      input.off('data', onData);
      input.off('end', endInput);
      input.off('close', onInputClose);
      if (options.endOutput) output.end();
      const text = reason.toString('utf8') || (failure ?? '');
      resolve({ code, reason: text, normal: NORMAL_CLOSE_CODES.has(code) });
    };

    // Take over from openTunnel in one tick: nothing can arrive in between.
    tunnel.detach();
    output.on('error', onError);
    for (const { data, isBinary } of tunnel.early.splice(0)) onMessage(data, isBinary);
    if (tunnel.closed) return onClose(tunnel.closed.code, tunnel.closed.reason);
    ws.on('message', onMessage);
    ws.on('error', (err) => {
      failure ??= causeMessage(err);
    });
    ws.once('close', onClose);
    input.on('data', onData);
    input.once('end', endInput);
    input.once('close', onInputClose);
    input.on('error', onError);
    input.resume();
  });
}

/** The one-line account of a tunnel that did not end normally. */
export function describeEnd(end: TunnelEnd): string {
  const why = end.reason === '' ? '' : `: ${end.reason}`;
  if (end.code === 1006) return `the tunnel connection was lost${why}`;
  return `the tunnel closed with code ${end.code}${why}`;
}
