import { pino, type Logger, type LevelWithSilent } from 'pino';
import { createRequire } from 'node:module';
import type PinoPretty from 'pino-pretty';
import { env, loadConfig } from './config.js';

export type { Logger } from 'pino';
export type LogFormat = 'json' | 'pretty';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export interface LoggerOptions {
  /** The service name, written as `name` on every line. */
  name: string;
  level?: LevelWithSilent;
  /** JSON lines for machines (the default off a terminal), or coloured text for people. */
  format?: LogFormat;
  /** Where lines go; standard output by default. */
  destination?: NodeJS.WritableStream;
}

/** Logging settings every service reads: SVC_LOG_LEVEL and SVC_LOG_FORMAT. */
export const loggingEnv = {
  SVC_LOG_LEVEL: env.oneOf(LOG_LEVELS, 'info'),
  SVC_LOG_FORMAT: env.oneOf(['json', 'pretty', 'auto'] as const, 'auto'),
};

export function loggingFromEnv(environment: Record<string, string | undefined> = process.env): {
  level: LevelWithSilent;
  format: LogFormat;
} {
  const config = loadConfig(loggingEnv, environment);
  const format =
    config.SVC_LOG_FORMAT === 'auto'
      ? process.stdout.isTTY
        ? 'pretty'
        : 'json'
      : config.SVC_LOG_FORMAT;
  return { level: config.SVC_LOG_LEVEL, format };
}

// pino-pretty (about 2.6 MiB once loaded) is required only by a logger that prints for a person:
// the per-agent processes log JSON and never load it.
const requireHere = createRequire(import.meta.url);
const loadPretty = () => requireHere('pino-pretty') as typeof PinoPretty;

export function createLogger(options: LoggerOptions): Logger {
  const base = { name: options.name, level: options.level ?? 'info', base: { name: options.name } };
  if (options.format === 'pretty') {
    const stream = loadPretty()({
      sync: true,
      destination: options.destination ?? 1,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname,name',
    });
    return pino(base, stream);
  }
  // Asynchronous writes: lines written while one write is in flight go out together, so a busy
  // service pays one system call per batch, not per line. pino flushes what is left at exit.
  return pino(base, options.destination ?? pino.destination({ dest: 1, sync: false }));
}

/** A logger that drops everything, for tests of code that takes one. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
