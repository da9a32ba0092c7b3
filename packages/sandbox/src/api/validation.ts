import { schemaCompilers } from '@paddock/common/lazy-schemas';
import type { Static, TSchema } from 'typebox';
import type { Parsed } from './websocket-upgrade.js';

/**
 * Query parameters checked against their schema as the listener checks them: for the WebSocket
 * routes, whose query is read again once the socket is open. The first mistake, named. The
 * request's first hook has loaded the schema compilers by then (schemaCompilers.install).
 */
export function checkParameters<S extends TSchema>(
  schema: S,
  parameters: Record<string, unknown>,
): Parsed<Static<S>> {
  const checked = schemaCompilers.loaded().validation.checkText(schema, parameters);
  if (checked.ok) return { ok: true, value: checked.value as Static<S> };
  const [first] = checked.errors;
  const extra = (first?.params as { additionalProperty?: string } | undefined)?.additionalProperty;
  if (extra !== undefined) return { ok: false, error: `unknown query parameter "${extra}"` };
  const name = first?.instancePath.replace(/^\//, '') ?? '';
  return {
    ok: false,
    error: `${name === '' ? 'the query' : name} ${first?.message ?? 'is not valid'}`,
  };
}
