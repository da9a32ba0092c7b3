/**
 * A token bucket, as pure functions: `capacity` requests at once, then one every `refillMs`.
 * Callers keep the state; nothing here reads a clock.
 */
export interface BucketRule {
  capacity: number;
  refillMs: number;
}

export interface BucketState {
  tokens: number;
  /** When `tokens` was last brought up to date. */
  at: number;
}

export type BucketDecision =
  | { allowed: true; state: BucketState }
  | { allowed: false; state: BucketState; retryAfterMs: number };

/** A full bucket at `now`. */
export function fullBucket(rule: BucketRule, now: number): BucketState {
  return { tokens: rule.capacity, at: now };
}

/** Takes one token at `now` if there is one; otherwise says how long until there is. */
export function take(state: BucketState, rule: BucketRule, now: number): BucketDecision {
  const elapsed = Math.max(0, now - state.at);
  const tokens = Math.min(rule.capacity, state.tokens + elapsed / rule.refillMs);
  if (tokens >= 1) return { allowed: true, state: { tokens: tokens - 1, at: now } };
  return {
    allowed: false,
    state: { tokens, at: now },
    retryAfterMs: Math.ceil((1 - tokens) * rule.refillMs),
  };
}
