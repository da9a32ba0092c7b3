import { constants } from 'node:os';
import { DEFAULT_COLS, DEFAULT_ROWS, ExecQuery, MAX_TERMINAL_SIDE } from './schemas.js';
import { checkParameters } from './validation.js';
import type { Parsed } from './websocket-upgrade.js';

/**
 * The terminal's wire format (GET /api/exec), as pure functions: binary frames carry raw terminal
 * bytes both ways, text frames carry the JSON control messages parsed and built here.
 */

export { DEFAULT_COLS, DEFAULT_ROWS, MAX_COMMAND_LENGTH, MAX_TERMINAL_SIDE } from './schemas.js';
/** Longest control message accepted; a resize or a signal is a few dozen bytes. */
export const MAX_CONTROL_MESSAGE_LENGTH = 1024;

/** Signals a client may send to the terminal's foreground job. */
export const CLIENT_SIGNALS = [
  'SIGINT',
  'SIGQUIT',
  'SIGTERM',
  'SIGHUP',
  'SIGKILL',
  'SIGTSTP',
  'SIGCONT',
  'SIGUSR1',
  'SIGUSR2',
] as const;
export type ClientSignal = (typeof CLIENT_SIGNALS)[number];

export interface ExecRequest {
  cols: number;
  rows: number;
  /** Run `bash -lc <command>` instead of an interactive login shell. */
  command: string | undefined;
}

export type ControlMessage =
  { type: 'resize'; cols: number; rows: number } | { type: 'signal'; signal: ClientSignal };

/** The one message the server sends as text: how the shell ended. */
export interface ExitMessage {
  type: 'exit';
  /** The exit status, or 128 + the signal number when a signal killed the shell (as bash reports it). */
  code: number;
  /** The signal that killed the shell, or null when it exited by itself. */
  signal: string | null;
}

/**
 * The query of GET /api/exec (its schema, ExecQuery, says what is allowed), with the defaults
 * filled in; a mistake is answered 400 before the upgrade.
 */
export function parseExecQuery(query: Record<string, unknown>): Parsed<ExecRequest> {
  const checked = checkParameters(ExecQuery, query);
  if (!checked.ok) return checked;
  const { cols, rows, command } = checked.value;
  return {
    ok: true,
    value: { cols: cols ?? DEFAULT_COLS, rows: rows ?? DEFAULT_ROWS, command },
  };
}

function isSide(value: unknown): value is number {
  return (
    Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_TERMINAL_SIDE
  );
}

/** A text frame from the client; an error closes the socket with 1008 and the error as reason. */
export function parseControlMessage(text: string): Parsed<ControlMessage> {
  if (text.length > MAX_CONTROL_MESSAGE_LENGTH) {
    return fail(`control message over ${MAX_CONTROL_MESSAGE_LENGTH} bytes`);
  }
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return fail('control message is not JSON');
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    return fail('control message must be a JSON object');
  }
  const m = message as Record<string, unknown>;
  switch (m.type) {
    case 'resize':
      if (!isSide(m.cols) || !isSide(m.rows)) {
        return fail(`resize needs whole cols and rows from 1 to ${MAX_TERMINAL_SIDE}`);
      }
      return { ok: true, value: { type: 'resize', cols: m.cols, rows: m.rows } };
    case 'signal':
      if (!CLIENT_SIGNALS.includes(m.signal as ClientSignal)) {
        return fail(`signal must be one of ${CLIENT_SIGNALS.join(', ')}`);
      }
      return { ok: true, value: { type: 'signal', signal: m.signal as ClientSignal } };
    default:
      return fail('unknown control message type; use resize or signal');
  }
}

/**
 * How the shell ended, from the pty's report (exit status, and the killing signal's number or 0):
 * a code is always present, 128 + N for a signal as a shell's `$?` shows it.
 */
export function exitMessage(exitCode: number, signalNumber: number | undefined): ExitMessage {
  if (signalNumber !== undefined && signalNumber > 0) {
    return { type: 'exit', code: 128 + signalNumber, signal: signalName(signalNumber) };
  }
  return { type: 'exit', code: exitCode, signal: null };
}

function signalName(n: number): string {
  const found = Object.entries(constants.signals).find(([, number]) => number === n);
  return found ? found[0] : `SIG${n}`;
}

export function encodeExitMessage(message: ExitMessage): string {
  return JSON.stringify(message);
}

function fail<T>(error: string): Parsed<T> {
  return { ok: false, error };
}
