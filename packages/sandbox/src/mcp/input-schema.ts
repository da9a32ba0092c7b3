import type { Tool as ToolDescriptor } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/**
 * The bounds zod states for every integer (`z.number().int()`): JavaScript's safe-integer range.
 * They say nothing a caller needs, and some function-calling APIs refuse such schemas.
 */
const IMPLIED_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/** Schema keys whose value is a numeric bound. */
const BOUND_KEYS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;

/**
 * A tool's input as the JSON Schema agents are given in tools/list: only what the tool itself
 * states. No `$schema` (the MCP specification fixes the dialect, and some function-calling APIs
 * refuse the key) and no safe-integer bounds zod adds to every integer.
 */
export function agentInputSchema(input: z.ZodObject): ToolDescriptor['inputSchema'] {
  const schema = z.toJSONSchema(input, {
    io: 'input',
    override: ({ jsonSchema }) => {
      const node = jsonSchema as Record<string, unknown>;
      for (const key of BOUND_KEYS) {
        const bound = node[key];
        if (typeof bound === 'number' && IMPLIED_BOUNDS.has(bound)) delete node[key];
      }
    },
  }) as Record<string, unknown>;
  delete schema.$schema;
  return schema as ToolDescriptor['inputSchema'];
}
