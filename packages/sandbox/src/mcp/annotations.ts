import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

/**
 * What a call of a tool does to the workspace and the processes in it:
 * - `reads`: changes nothing an agent could lose (it may note what the session has read);
 * - `adds`: changes things, but only by adding to them;
 * - `destroys`: may replace, delete or stop something that was there.
 */
export type ToolEffect = 'reads' | 'adds' | 'destroys';

/** The facts a client needs to decide how carefully to call a tool: one row of the tool table. */
export interface ToolFacts {
  /** A short human-readable name for the tool, shown by clients instead of its name. */
  title: string;
  effect: ToolEffect;
  /** A second call with the same arguments changes nothing more. Only said of tools that change. */
  idempotent: boolean;
  /** The tool may reach beyond the workspace: the network, other hosts, the whole machine. */
  openWorld: boolean;
}

/**
 * The MCP annotations for a tool's facts, every hint stated explicitly: the specification's
 * defaults (destructive, open world) are the cautious ones, and a client must not have to guess.
 * The idempotent and destructive hints mean something only for a tool that is not read-only.
 */
export function toolAnnotations(facts: ToolFacts): ToolAnnotations {
  const readOnly = facts.effect === 'reads';
  return {
    title: facts.title,
    readOnlyHint: readOnly,
    destructiveHint: facts.effect === 'destroys',
    idempotentHint: readOnly || facts.idempotent,
    openWorldHint: facts.openWorld,
  };
}
