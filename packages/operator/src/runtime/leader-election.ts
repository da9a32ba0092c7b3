import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { silentLogger, type Logger } from '@paddock/common';
import {
  ConflictError,
  CORE_KINDS,
  ForbiddenError,
  NotFoundError,
  type Kube,
  type KubeObject,
  type ResourceClient,
} from '@paddock/kube';

/** coordination.k8s.io/v1 LeaseSpec: the leader election record. */
export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  /** MicroTime: RFC 3339 with microseconds. */
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

export interface Lease extends KubeObject {
  spec?: LeaseSpec;
}

export interface LeaderElectionOptions {
  kube: Kube;
  namespace: string;
  name: string;
  /** Unique per replica; by default the host name and a random suffix. */
  identity?: string;
  /** How long a lease holds without renewal before a standby may take it. */
  leaseDurationMs?: number;
  /** How long the leader keeps trying to renew before it gives leadership up. */
  renewDeadlineMs?: number;
  /** The wait between attempts to acquire or renew. */
  retryPeriodMs?: number;
  /** The longest wait between failing attempts to acquire, which back off from the retry period. */
  maxFailureBackoffMs?: number;
  /** Names the variable that chose the namespace, for the reason a missing one gives. */
  namespaceSetting?: string;
  onStartedLeading?: () => void;
  /** Leadership ended without stop(): renewal failed past the deadline, or another holder took it. */
  onLostLeadership?: () => void;
  logger?: Logger;
}

/** Tries to clear the holder at stop, when concurrent writes conflict. */
const RELEASE_ATTEMPTS = 3;

/** client-go's defaults. */
export const DEFAULT_LEASE_DURATION_MS = 15_000;
export const DEFAULT_RENEW_DEADLINE_MS = 10_000;
export const DEFAULT_RETRY_PERIOD_MS = 2_000;

/** Failing attempts to acquire back off up to this, so a long wait logs a line now and then. */
export const DEFAULT_MAX_FAILURE_BACKOFF_MS = 60_000;

/** Acquiring waits a little more than the retry period so that standbys do not move in step. */
const ACQUIRE_JITTER = 0.2;

type Attempt = 'acquired' | 'held-by-other' | { failed: unknown };
const FAILED: Attempt = { failed: undefined };

/**
 * Why the lease cannot be taken, in words an operator of the cluster acts on: the missing
 * namespace or the missing permission, else the API server's own message.
 */
export function leaseFailureReason(err: unknown, namespace: string, setting?: string): string {
  const named = setting === undefined ? '' : ` (${setting})`;
  if (err instanceof NotFoundError && /namespaces? /.test(err.message)) {
    return `the namespace "${namespace}"${named} does not exist: create it, the leader lease lives there`;
  }
  if (err instanceof ForbiddenError) {
    return `${err.message}: the operator needs get, create and update on leases in "${namespace}"`;
  }
  if (err === undefined) return 'the attempt timed out';
  return err instanceof Error ? err.message : 'the attempt failed';
}

/** The wait before the next attempt after `failures` failed in a row: doubling, capped. */
export function failureBackoffMs(failures: number, retryPeriodMs: number, maxMs: number): number {
  return Math.min(maxMs, retryPeriodMs * 2 ** Math.min(30, Math.max(0, failures - 1)));
}

/** A MicroTime: the API server keeps the microseconds of Lease times. */
function microTime(when: Date): string {
  return when.toISOString().replace(/Z$/, '000Z');
}

/**
 * Leader election on a Lease, as client-go does it: the candidate takes the lease when it is free
 * or its holder has not renewed it for a lease duration (as seen on this replica's clock, so clocks
 * need not agree), the leader renews it every retry period, and every write carries the
 * resourceVersion read, so a ConflictError means another replica wrote first. stop() clears the
 * holder so that a standby takes over at its next attempt instead of after the lease expires.
 */
export class LeaderElector {
  readonly identity: string;
  private readonly leases: ResourceClient<Lease>;
  private readonly leaseDurationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;
  private readonly logger: Logger;
  private readonly abort = new AbortController();
  private leading = false;
  private loop: Promise<void> | undefined;
  /** The record last read and when this replica first saw it: what expiry is judged by. */
  private observed: { spec: string; at: number } | undefined;
  /** The latest attempt, which may outlive the deadline it raced. */
  private attempt: Promise<Attempt> | undefined;
  /** Why the latest attempt to acquire failed, while no later one has succeeded. */
  private failure: string | undefined;

  constructor(private readonly options: LeaderElectionOptions) {
    this.identity = options.identity ?? `${hostname()}_${randomUUID()}`;
    this.leases = options.kube.resource<Lease>(CORE_KINDS.lease);
    this.leaseDurationMs = options.leaseDurationMs ?? DEFAULT_LEASE_DURATION_MS;
    this.renewDeadlineMs = options.renewDeadlineMs ?? DEFAULT_RENEW_DEADLINE_MS;
    this.retryPeriodMs = options.retryPeriodMs ?? DEFAULT_RETRY_PERIOD_MS;
    this.logger = options.logger ?? silentLogger();
    if (this.renewDeadlineMs >= this.leaseDurationMs) {
      throw new RangeError('the renew deadline must be shorter than the lease duration');
    }
    if (this.retryPeriodMs >= this.renewDeadlineMs) {
      throw new RangeError('the retry period must be shorter than the renew deadline');
    }
  }

  get isLeader(): boolean {
    return this.leading;
  }

  /**
   * Readiness: a leader or a standby that reads the lease is ready; a candidate whose attempts
   * fail is not, and says why.
   */
  readiness(): { ready: boolean; reason?: string } {
    return this.failure === undefined ? { ready: true } : { ready: false, reason: this.failure };
  }

  /** Campaigns until stopped: acquires, renews, and campaigns again after losing the lease. */
  start(): void {
    this.loop ??= this.run();
  }

  /** Stops campaigning for good and, when leading, releases the lease. Never throws. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
    if (!this.leading) return;
    this.leading = false;
    // A renewal that was in flight may have moved the resourceVersion: read again and retry.
    for (let attempt = 1; ; attempt++) {
      try {
        const lease = await this.leases.get(this.options.name, this.options.namespace);
        if (lease.spec?.holderIdentity !== this.identity) return;
        const now = microTime(new Date());
        await this.leases.replace({
          ...lease,
          spec: {
            ...lease.spec,
            holderIdentity: undefined,
            leaseDurationSeconds: 1,
            acquireTime: now,
            renewTime: now,
          },
        });
        this.logger.info({ lease: this.options.name }, 'released the leader lease');
        return;
      } catch (err) {
        if (err instanceof ConflictError && attempt < RELEASE_ATTEMPTS) continue;
        this.logger.warn({ err, lease: this.options.name }, 'could not release the leader lease');
        return;
      }
    }
  }

  private get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  private async run(): Promise<void> {
    while (await this.acquire()) {
      this.leading = true;
      // Stopped while the winning write was in flight: stop() releases what was just won.
      if (this.stopped) return;
      this.logger.info({ lease: this.options.name, identity: this.identity }, 'became leader');
      this.notify(this.options.onStartedLeading);
      if (!(await this.renew())) return;
      this.leading = false;
      this.logger.warn({ lease: this.options.name }, 'lost leadership');
      this.notify(this.options.onLostLeadership);
    }
  }

  /** Resolves true once the lease is won, false when stopped first. */
  private async acquire(): Promise<boolean> {
    let failures = 0;
    for (;;) {
      if (this.stopped) return false;
      const attempt = await this.tryOnce(this.leaseDurationMs);
      if (attempt === 'acquired') {
        this.failure = undefined;
        return true;
      }
      let waitMs = this.retryPeriodMs;
      // Another candidate writing first is the election working, not a failure.
      if (attempt === 'held-by-other' || attempt.failed instanceof ConflictError) {
        failures = 0;
        this.failure = undefined;
        this.logger.debug({ lease: this.options.name }, 'the leader lease is held by another');
      } else if (!this.stopped) {
        failures++;
        const { namespace, name, namespaceSetting } = this.options;
        this.failure = leaseFailureReason(attempt.failed, namespace, namespaceSetting);
        waitMs = failureBackoffMs(
          failures,
          this.retryPeriodMs,
          this.options.maxFailureBackoffMs ?? DEFAULT_MAX_FAILURE_BACKOFF_MS,
        );
        this.logger.warn(
          { lease: name, namespace, reason: this.failure, failures, retryInMs: Math.round(waitMs) },
          `cannot take the leader lease: ${this.failure}`,
        );
      }
      const jitter = 1 + Math.random() * ACQUIRE_JITTER;
      if (!(await this.wait(waitMs * jitter))) return false;
    }
  }

  /** Renews until renewal fails past the deadline or another holder appears (false when stopped). */
  private async renew(): Promise<boolean> {
    let renewed = Date.now();
    for (;;) {
      if (!(await this.wait(this.retryPeriodMs))) return false;
      const left = renewed + this.renewDeadlineMs - Date.now();
      const attempt = left > 0 ? await this.tryOnce(left) : FAILED;
      if (this.stopped) return false;
      if (attempt === 'acquired') renewed = Date.now();
      else if (attempt === 'held-by-other') return true;
      else if (Date.now() - renewed >= this.renewDeadlineMs) return true;
    }
  }

  /** One attempt, abandoned (as failed) after `limitMs` or when stopped. */
  private async tryOnce(limitMs: number): Promise<Attempt> {
    // Never two requests at once: an abandoned attempt may still be in flight.
    const previous = this.attempt ?? Promise.resolve();
    const attempt = previous
      .then(() => this.tryAcquireOrRenew())
      .catch((err: unknown): Attempt => {
        this.logger.debug({ err, lease: this.options.name }, 'leader lease attempt failed');
        return { failed: err };
      });
    this.attempt = attempt;
    const timeout = new AbortController();
    const signal = AbortSignal.any([timeout.signal, this.abort.signal]);
    const expired = sleep(limitMs, FAILED, { signal }).catch(() => FAILED);
    try {
      return await Promise.race([attempt, expired]);
    } finally {
      timeout.abort();
    }
  }

  private async tryAcquireOrRenew(): Promise<Attempt> {
    const { name, namespace } = this.options;
    const now = new Date();
    let lease: Lease;
    try {
      lease = await this.leases.get(name, namespace);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      try {
        const created = await this.leases.create({
          metadata: { name, namespace },
          spec: this.record(now, undefined),
        });
        this.observe(created, now);
        return 'acquired';
      } catch (createErr) {
        if (createErr instanceof ConflictError) return { failed: createErr };
        throw createErr;
      }
    }
    this.observe(lease, now);
    const spec = lease.spec ?? {};
    const holder = spec.holderIdentity ?? '';
    if (holder !== '' && holder !== this.identity && !this.expired(spec, now)) {
      return 'held-by-other';
    }
    try {
      const written = await this.leases.replace({ ...lease, spec: this.record(now, spec) });
      this.observe(written, now);
      return 'acquired';
    } catch (err) {
      if (err instanceof ConflictError) return { failed: err };
      throw err;
    }
  }

  /** The record this replica writes: a renewal keeps acquireTime, a takeover counts a transition. */
  private record(now: Date, old: LeaseSpec | undefined): LeaseSpec {
    const renewal = old?.holderIdentity === this.identity;
    const time = microTime(now);
    return {
      holderIdentity: this.identity,
      leaseDurationSeconds: Math.max(1, Math.ceil(this.leaseDurationMs / 1000)),
      acquireTime: renewal ? (old.acquireTime ?? time) : time,
      renewTime: time,
      leaseTransitions: old === undefined ? 0 : (old.leaseTransitions ?? 0) + (renewal ? 0 : 1),
    };
  }

  private observe(lease: Lease, now: Date): void {
    const spec = JSON.stringify(lease.spec ?? {});
    if (this.observed?.spec !== spec) this.observed = { spec, at: now.getTime() };
  }

  private expired(spec: LeaseSpec, now: Date): boolean {
    const duration = (spec.leaseDurationSeconds ?? 0) * 1000;
    return (this.observed?.at ?? 0) + duration <= now.getTime();
  }

  /** Sleeps; false when stopped meanwhile. */
  private async wait(ms: number): Promise<boolean> {
    try {
      await sleep(ms, undefined, { signal: this.abort.signal });
      return true;
    } catch {
      return false;
    }
  }

  private notify(callback: (() => void) | undefined): void {
    try {
      callback?.();
    } catch (err) {
      this.logger.error({ err }, 'a leader election callback failed');
    }
  }
}
