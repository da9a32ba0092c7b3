import { z } from 'zod';
import { parseAddress, type Address } from './address.js';

/**
 * Configuration comes from SVC_* environment variables. Each variable is described by a zod schema
 * that receives the raw string (or undefined when unset); `loadConfig` reads them all and reports
 * every problem at once rather than stopping at the first.
 */
export type EnvSchema = z.ZodType<unknown, string | undefined>;
export type EnvShape = Record<string, EnvSchema>;
export type ConfigOf<S extends EnvShape> = { [K in keyof S]: z.output<S[K]> };

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Cross-variable rules: call `problem(text)` for each violation found in the parsed values. */
export type ConfigCheck<C> = (config: C, problem: (text: string) => void) => void;

export function loadConfig<S extends EnvShape>(
  shape: S,
  env: Record<string, string | undefined> = process.env,
  check?: ConfigCheck<ConfigOf<S>>,
): ConfigOf<S> {
  const problems: string[] = [];
  const config: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(shape)) {
    const raw = env[name];
    const parsed = schema.safeParse(raw === '' ? undefined : raw);
    if (parsed.success) config[name] = parsed.data;
    else for (const issue of parsed.error.issues) problems.push(`${name}: ${issue.message}`);
  }
  if (problems.length === 0 && check) check(config as ConfigOf<S>, (text) => problems.push(text));
  if (problems.length > 0) throw new ConfigError(problems);
  return config as ConfigOf<S>;
}

const raw = () => z.string().optional();

function fail(ctx: z.RefinementCtx, message: string): never {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
}

/** Schemas for the shapes SVC_* values take. Each names its default; unset and empty mean default. */
export const env = {
  string<D extends string | undefined>(defaultValue?: D) {
    return raw().transform(
      (v) => (v ?? defaultValue) as D extends string ? string : string | undefined,
    );
  },

  boolean(defaultValue: boolean) {
    return raw().transform((v, ctx) => {
      if (v === undefined) return defaultValue;
      const lower = v.trim().toLowerCase();
      if (['true', '1', 'yes', 'on'].includes(lower)) return true;
      if (['false', '0', 'no', 'off'].includes(lower)) return false;
      return fail(ctx, `"${v}" is not a boolean (use true or false)`);
    });
  },

  integer(defaultValue: number, bounds: { min?: number; max?: number } = {}) {
    return raw().transform((v, ctx) => {
      if (v === undefined) return defaultValue;
      if (!/^-?\d+$/.test(v.trim())) return fail(ctx, `"${v}" is not a whole number`);
      const n = Number(v);
      if (bounds.min !== undefined && n < bounds.min)
        return fail(ctx, `${n} is below ${bounds.min}`);
      if (bounds.max !== undefined && n > bounds.max)
        return fail(ctx, `${n} is above ${bounds.max}`);
      return n;
    });
  },

  oneOf<const T extends readonly string[]>(
    values: T,
    defaultValue: T[number],
    aliases: Record<string, T[number]> = {},
  ) {
    return raw().transform((v, ctx): T[number] => {
      if (v === undefined) return defaultValue;
      const value = v.trim();
      if ((values as readonly string[]).includes(value)) return value;
      const alias = aliases[value];
      if (alias !== undefined) return alias;
      return fail(ctx, `"${v}" is not one of ${values.join(', ')}`);
    });
  },

  /** Comma-separated values, trimmed, empties dropped. */
  list(defaultValue: readonly string[] = []) {
    return raw().transform((v) =>
      v === undefined
        ? [...defaultValue]
        : v
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s !== ''),
    );
  },

  address(defaultValue: string) {
    return raw().transform((v, ctx): Address => {
      const parsed = parseAddress(v ?? defaultValue);
      return 'error' in parsed ? fail(ctx, parsed.error) : parsed;
    });
  },

  url(defaultValue?: string) {
    return raw().transform((v, ctx): URL | undefined => {
      const text = v ?? defaultValue;
      if (text === undefined) return undefined;
      try {
        const url = new URL(text);
        if (url.protocol !== 'http:' && url.protocol !== 'https:') {
          return fail(ctx, `"${text}" is not an http or https URL`);
        }
        return url;
      } catch {
        return fail(ctx, `"${text}" is not a URL`);
      }
    });
  },
};
