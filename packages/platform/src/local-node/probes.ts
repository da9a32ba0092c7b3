import { setTimeout as sleep } from 'node:timers/promises';
import type { Container, HttpProbe } from './pod.js';

/** The kubelet's probe defaults. */
const DEFAULT_PERIOD_SECONDS = 10;
const DEFAULT_TIMEOUT_SECONDS = 1;
const DEFAULT_FAILURE_THRESHOLD = 3;
/**
 * Until a readiness probe first succeeds it runs at least this often, whatever its period: a pod
 * whose process listens within a second is Ready within about a second, not a whole period later.
 */
export const FIRST_READY_POLL_MS = 1000;

export interface ProbeSettings {
  initialDelayMs: number;
  periodMs: number;
  timeoutMs: number;
  failureThreshold: number;
  successThreshold: number;
}

export function probeSettings(probe: HttpProbe): ProbeSettings {
  const seconds = (value: number | undefined, fallback: number) =>
    (value !== undefined && value > 0 ? value : fallback) * 1000;
  return {
    initialDelayMs: (probe.initialDelaySeconds ?? 0) * 1000,
    periodMs: seconds(probe.periodSeconds, DEFAULT_PERIOD_SECONDS),
    timeoutMs: seconds(probe.timeoutSeconds, DEFAULT_TIMEOUT_SECONDS),
    failureThreshold: Math.max(1, probe.failureThreshold ?? DEFAULT_FAILURE_THRESHOLD),
    successThreshold: Math.max(1, probe.successThreshold ?? 1),
  };
}

/**
 * The URL an httpGet probe asks, against the pod's address: the port by number, or by the name of
 * one of the container's ports. A string for a probe this node cannot run. Pure.
 */
export function probeUrl(
  probe: HttpProbe,
  container: Container,
  podIP: string,
): { url: string } | { error: string } {
  const get = probe.httpGet;
  if (get === undefined) return { error: 'only httpGet probes run on this node' };
  const port =
    typeof get.port === 'number' || /^\d+$/.test(get.port)
      ? Number(get.port)
      : container.ports?.find((p) => p.name === get.port)?.containerPort;
  if (port === undefined) return { error: `port "${get.port}" is not a port of the container` };
  const scheme = (get.scheme ?? 'HTTP').toLowerCase();
  const host = get.host ?? podIP;
  const path = get.path === undefined || get.path === '' ? '/' : get.path;
  return { url: `${scheme}://${host}:${port}${path.startsWith('/') ? path : `/${path}`}` };
}

/** Consecutive outcomes, and the result they add up to. */
export interface ProbeState {
  healthy: boolean;
  successes: number;
  failures: number;
}

/** Readiness starts failed (not ready), liveness succeeded, as the kubelet's. */
export const initialProbeState = (healthy: boolean): ProbeState => ({
  healthy,
  successes: 0,
  failures: 0,
});

/**
 * The state after one probe: the result flips to failed after failureThreshold consecutive
 * failures and back after successThreshold consecutive successes. Pure.
 */
export function afterProbe(state: ProbeState, ok: boolean, settings: ProbeSettings): ProbeState {
  const successes = ok ? state.successes + 1 : 0;
  const failures = ok ? 0 : state.failures + 1;
  let healthy = state.healthy;
  if (ok && successes >= settings.successThreshold) healthy = true;
  if (!ok && failures >= settings.failureThreshold) healthy = false;
  return { healthy, successes, failures };
}

/** One HTTP probe: success for a status from 200 to 399, as the kubelet's. */
export async function httpProbe(
  url: string,
  timeoutMs: number,
): Promise<{ ok: true } | { ok: false; message: string }> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    await res.body?.cancel();
    if (res.status >= 200 && res.status < 400) return { ok: true };
    return { ok: false, message: `HTTP probe failed with statuscode: ${res.status}` };
  } catch (err) {
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    return { ok: false, message: `Get "${url}": ${cause ?? (err as Error).message}` };
  }
}

export interface ProberOptions {
  url: string;
  settings: ProbeSettings;
  /** The result before the first probe. */
  initiallyHealthy: boolean;
  /** Called when the result flips, with the last failure's message when it flips to failed. */
  onChange: (healthy: boolean, message: string) => void;
}

/**
 * Runs one probe of a container until stopped: after the initial delay, then every period (and
 * for readiness not yet met, at least every FIRST_READY_POLL_MS).
 */
export class Prober {
  private readonly abort = new AbortController();
  private state: ProbeState;

  constructor(private readonly options: ProberOptions) {
    this.state = initialProbeState(options.initiallyHealthy);
    void this.loop();
  }

  stop(): void {
    this.abort.abort();
  }

  private async loop(): Promise<void> {
    const { settings, url } = this.options;
    const signal = this.abort.signal;
    const wait = (ms: number) =>
      sleep(ms, undefined, { signal, ref: false }).then(
        () => true,
        () => false,
      );
    if (!(await wait(settings.initialDelayMs))) return;
    let everHealthy = this.options.initiallyHealthy;
    while (!signal.aborted) {
      const result = await httpProbe(url, settings.timeoutMs);
      if (signal.aborted) return;
      const next = afterProbe(this.state, result.ok, settings);
      const flipped = next.healthy !== this.state.healthy;
      this.state = next;
      if (next.healthy) everHealthy = true;
      if (flipped) this.options.onChange(next.healthy, result.ok ? '' : result.message);
      const period = everHealthy
        ? settings.periodMs
        : Math.min(settings.periodMs, FIRST_READY_POLL_MS);
      if (!(await wait(period))) return;
    }
  }
}
