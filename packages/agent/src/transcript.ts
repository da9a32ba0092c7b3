// What a run shows of itself, event by event: JSON-serialisable, numbered in order, so that it can
// be stored, streamed and resumed from any event.
import type { ModelErrorCode } from './model.js';

/** `interrupted`: the agent restarted during the run (the run store says so; nothing resumes it). */
export type OutcomeStatus =
  'completed' | 'failed' | 'cancelled' | 'limit' | 'blocked' | 'interrupted';

/**
 * The abort reason of a run the agent itself ends by stopping (its pod deleted or restarted): the
 * run is recorded `interrupted`, as one cut by a crash is when the agent starts again.
 */
export class Interruption {
  constructor(readonly reason: string) {}
}

export interface Outcome {
  status: OutcomeStatus;
  /** Why the run ended this way (absent for a plain completion). */
  reason?: string;
  /** For a failed model call: what failed (e.g. model_unauthorized). */
  code?: ModelErrorCode;
}

export type TranscriptEntry =
  | { type: 'task'; text: string }
  | { type: 'text'; delta: string }
  /** `arguments` as scrubbed for the transcript; the tool got them unscrubbed. */
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  /** `text` as the model got it (after truncation). */
  | { type: 'tool_result'; id: string; text: string; isError: boolean; truncated: boolean }
  /** One model call's tokens and their cost. */
  | { type: 'usage'; input: number; output: number; usd: number }
  | ({ type: 'outcome' } & Outcome);

/** An entry with its place in the run, counted from 1. */
export type TranscriptEvent = TranscriptEntry & { seq: number };
