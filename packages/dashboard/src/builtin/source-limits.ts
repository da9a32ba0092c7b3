import { DashboardError } from '../errors.js';
import { fullBucket, take, type BucketRule, type BucketState } from './token-bucket.js';

/**
 * The unauthenticated endpoints that cost work (argon2, a database write, a mail), each with its
 * own per-source bucket: SVC_BUILTIN_SOURCE_RATE_LIMIT requests at once, then that many a minute.
 * Mails are further limited per account (MAIL_COOLDOWN_MS).
 */
export const LIMITED_ENDPOINTS = [
  'login',
  'signup',
  'forgot-password',
  'resend-verification',
  'reset-password',
  'verify-email',
] as const;

export type LimitedEndpoint = (typeof LIMITED_ENDPOINTS)[number];

/** The bucket of `perMinute` requests a minute, after a burst of as many. */
export function perMinute(perMinute: number): BucketRule {
  return { capacity: perMinute, refillMs: 60_000 / perMinute };
}

/**
 * Sources remembered per endpoint (least recently seen forgotten first): about 100 bytes each,
 * so at most a few megabytes per replica. A forgotten source starts again with a full bucket.
 */
export const MAX_TRACKED_SOURCES = 10_000;

/** `rate_limited`, with the seconds to wait (the edge puts them in Retry-After). */
export class RetryLater extends DashboardError {
  constructor(
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super('rate_limited', message);
    this.name = 'RetryLater';
  }
}

/**
 * Per-source rate limits of the unauthenticated endpoints, in this replica's memory (each replica
 * counts on its own: N replicas allow N times the budget).
 */
export class SourceLimits {
  private readonly buckets = new Map<LimitedEndpoint, Map<string, BucketState>>();

  constructor(private readonly rule: BucketRule) {}

  /** Spends one request of `source` on `endpoint`; throws RetryLater when none is left. */
  check(endpoint: LimitedEndpoint, source: string, now: number): void {
    const { rule } = this;
    let bySource = this.buckets.get(endpoint);
    if (!bySource) this.buckets.set(endpoint, (bySource = new Map<string, BucketState>()));
    const state = bySource.get(source) ?? fullBucket(rule, now);
    const decision = take(state, rule, now);
    bySource.delete(source);
    bySource.set(source, decision.state);
    if (bySource.size > MAX_TRACKED_SOURCES) {
      const oldest = bySource.keys().next();
      if (!oldest.done) bySource.delete(oldest.value);
    }
    if (!decision.allowed) {
      const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
      throw new RetryLater(
        seconds,
        `too many requests from your address: try again in ${seconds} s`,
      );
    }
  }
}
