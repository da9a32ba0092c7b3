/**
 * An agent's log as lines a person can read: JSON lines (pino's, and the common shapes of other
 * loggers) become time, level and message with the other fields kept aside; any other line stays
 * as it was written. Pure, without imports, so the tests run it as it is.
 */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** The levels the viewer filters on, least to most severe. */
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** Most lines kept: a followed log drops its oldest lines past this, so the page stays quick. */
export const MAX_LINES = 5000;

export interface LogLine {
  /** Increases line by line: a stable key while lines come and go. */
  id: number;
  /** The line as written (without its line break). */
  raw: string;
  /** Whether the line is a JSON object (then time, level, message and fields come from it). */
  json: boolean;
  /** When the line was written, in milliseconds since 1970, if it says so. */
  time: number | null;
  /** The level the filter uses; null when the line has none, or one not known. */
  level: LogLevel | null;
  /** The level as the line names it (`fatal`, `trace`, `notice`); null without one. */
  levelName: string | null;
  /** The message: the raw line for a plain line, its `msg` or `message` for a JSON one. */
  message: string;
  /** The other fields of a JSON line, in their order, values as text; empty for a plain line. */
  fields: [string, string][];
}

const TIME_KEYS = ['time', 'timestamp', '@timestamp', 'ts'];
const LEVEL_KEYS = ['level', 'lvl', 'severity', 'levelname'];
const MESSAGE_KEYS = ['msg', 'message'];

/** pino's numeric levels. */
const PINO_NAMES: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

/** Level names of common loggers (pino, bunyan, zap, logrus, syslog, Python, Cloud Logging). */
const NAMED_LEVELS: Record<string, LogLevel> = {
  trace: 'debug',
  debug: 'debug',
  verbose: 'debug',
  info: 'info',
  information: 'info',
  notice: 'info',
  warn: 'warn',
  warning: 'warn',
  error: 'error',
  err: 'error',
  fatal: 'error',
  critical: 'error',
  crit: 'error',
  alert: 'error',
  emerg: 'error',
  emergency: 'error',
  panic: 'error',
  dpanic: 'error',
};

/** A numeric level on pino's scale (10 trace … 60 fatal): below 30 is debug, 50 and up error. */
function numericLevel(n: number): LogLevel {
  if (n < 30) return 'debug';
  if (n < 40) return 'info';
  if (n < 50) return 'warn';
  return 'error';
}

/** The level of a JSON line's level field: [filter level, name as shown]. */
export function levelOf(value: unknown): [LogLevel | null, string | null] {
  if (typeof value === 'number' && Number.isFinite(value)) {
    return [numericLevel(value), PINO_NAMES[value] ?? String(value)];
  }
  if (typeof value !== 'string' || value.trim() === '') return [null, null];
  const name = value.trim().toLowerCase();
  if (/^\d+$/.test(name)) return levelOf(Number(name));
  return [NAMED_LEVELS[name] ?? null, name];
}

/**
 * A time field as milliseconds: ISO strings, or epoch numbers (pino writes milliseconds; zap and
 * Python seconds, told apart by size: 1e11 seconds is the year 5138, 1e11 ms 1973).
 */
export function timeOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) {
    return value < 1e11 ? Math.round(value * 1000) : value;
  }
  if (typeof value !== 'string' || value === '') return null;
  if (/^\d+(\.\d+)?$/.test(value)) return timeOf(Number(value));
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? String(value);
}

function firstKey(object: Record<string, unknown>, keys: string[]): string | undefined {
  return keys.find((key) => Object.hasOwn(object, key));
}

/** One line of a log, parsed. */
export function parseLine(raw: string, id: number): LogLine {
  const plain: LogLine = {
    id,
    raw,
    json: false,
    time: null,
    level: null,
    levelName: null,
    message: raw,
    fields: [],
  };
  const trimmed = raw.trim();
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return plain;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return plain;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return plain;
  const object = parsed as Record<string, unknown>;

  const timeKey = firstKey(object, TIME_KEYS);
  const levelKey = firstKey(object, LEVEL_KEYS);
  const messageKey = firstKey(object, MESSAGE_KEYS);
  const time = timeKey === undefined ? null : timeOf(object[timeKey]);
  const [level, levelName] = levelKey === undefined ? [null, null] : levelOf(object[levelKey]);
  // A field is folded away only when it was understood; otherwise it stays among the fields.
  const used = new Set<string>();
  if (timeKey !== undefined && time !== null) used.add(timeKey);
  if (levelKey !== undefined && levelName !== null) used.add(levelKey);
  if (messageKey !== undefined) used.add(messageKey);
  return {
    id,
    raw,
    json: true,
    time,
    level,
    levelName,
    message: messageKey === undefined ? '' : asText(object[messageKey]),
    fields: Object.entries(object)
      .filter(([key]) => !used.has(key))
      .map(([key, value]) => [key, asText(value)]),
  };
}

/** Lines as they arrive: complete ones parsed, the unfinished last one held back. */
export interface LogBuffer {
  lines: LogLine[];
  /** Text after the last line break, not yet a line. */
  partial: string;
  /** The id of the next line. */
  nextId: number;
  /** How many lines were dropped to keep at most `max`. */
  dropped: number;
}

export const EMPTY_BUFFER: LogBuffer = { lines: [], partial: '', nextId: 0, dropped: 0 };

/** Adds text to the buffer, keeping the newest `max` lines. Returns a new buffer. */
export function appendText(buffer: LogBuffer, text: string, max = MAX_LINES): LogBuffer {
  if (text === '') return buffer;
  const pieces = (buffer.partial + text).split('\n');
  const partial = pieces.pop() ?? '';
  // Only the newest `max` pieces can survive: older ones are not even parsed.
  const skip = Math.max(0, pieces.length - max);
  let nextId = buffer.nextId + skip;
  const added = pieces.slice(skip).map((piece) => parseLine(piece.replace(/\r$/, ''), nextId++));
  const all = added.length === 0 ? buffer.lines : [...buffer.lines, ...added];
  const over = Math.max(0, all.length - max);
  return {
    lines: over === 0 ? all : all.slice(over),
    partial,
    nextId,
    dropped: buffer.dropped + skip + over,
  };
}

/** The buffer's lines, with the unfinished last line too (shown while it is being written). */
export function linesOf(buffer: LogBuffer): LogLine[] {
  if (buffer.partial === '') return buffer.lines;
  return [...buffer.lines, parseLine(buffer.partial.replace(/\r$/, ''), buffer.nextId)];
}

/** A whole log read at once. */
export function parseLog(text: string, max = MAX_LINES): LogBuffer {
  return appendText(EMPTY_BUFFER, text, max);
}

export interface LogFilter {
  /** The levels shown. */
  levels: ReadonlySet<LogLevel>;
  /** Whether lines without a known level (plain lines among them) are shown. */
  other: boolean;
  /** Shown lines contain this, in any case; empty: all. */
  text: string;
}

/** The lines the filter lets through. */
export function filterLines(lines: LogLine[], filter: LogFilter): LogLine[] {
  const needle = filter.text.trim().toLowerCase();
  const all = filter.other && LOG_LEVELS.every((level) => filter.levels.has(level));
  if (all && needle === '') return lines;
  return lines.filter(
    (line) =>
      (line.level === null ? filter.other : filter.levels.has(line.level)) &&
      (needle === '' || line.raw.toLowerCase().includes(needle)),
  );
}

/** Lines as the text of a .log file: each as it was written. */
export function logText(lines: LogLine[]): string {
  return lines.length === 0 ? '' : `${lines.map((line) => line.raw).join('\n')}\n`;
}

/** The name of a downloaded log: `<pod>[-<container>].log`, safe on every file system. */
export function logFileName(pod: string, container: string | undefined): string {
  const base = container === undefined ? pod : `${pod}-${container}`;
  return `${base.replace(/[^A-Za-z0-9._-]/g, '_')}.log`;
}
