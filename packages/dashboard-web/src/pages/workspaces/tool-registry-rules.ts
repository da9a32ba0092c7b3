// Imports end in .js: the unit tests type-check this module as Node code, outside the bundler.
import type { Checked } from './form-rules.js';

/** The spec typed as JSON, when it is a JSON object. */
export function registrySpecOf(text: string): Checked<Record<string, unknown>> {
  let spec: unknown;
  try {
    spec = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      problem: `The spec is not valid JSON: ${error instanceof Error ? error.message : ''}`,
    };
  }
  if (!isObject(spec)) {
    return { ok: false, problem: 'The spec must be a JSON object, such as {"handlers": […]}.' };
  }
  return { ok: true, value: spec };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
