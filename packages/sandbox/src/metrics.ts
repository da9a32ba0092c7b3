import { collectProcessMetrics } from '@paddock/common/process-metrics';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Names of the sandbox's metrics, for dashboards and tests. */
export const METRIC_NAMES = {
  toolCalls: 'paddock_sandbox_mcp_tool_calls_total',
  toolDuration: 'paddock_sandbox_mcp_tool_call_duration_seconds',
  sessions: 'paddock_sandbox_mcp_sessions',
  terminals: 'paddock_sandbox_terminals',
  tunnels: 'paddock_sandbox_port_forward_tunnels',
  tunnelBytes: 'paddock_sandbox_port_forward_bytes_total',
} as const;

/**
 * How a tool call ended: `ok`; `error`, a result with isError (the caller's mistake: bad
 * arguments, a missing file, a failed command); `failed`, a JSON-RPC error (an unknown tool, or a
 * fault the tool could not handle).
 */
export type ToolCallResult = 'ok' | 'error' | 'failed';

/** Which way tunnel bytes went: `in` from the client to the target, `out` back. */
export type TunnelDirection = 'in' | 'out';

/** The label of a call to a tool the sandbox does not have: its name is the caller's text. */
export const UNKNOWN_TOOL = 'unknown';

/** Tool calls range from a cached Read to a Bash command at its 10-minute timeout. */
const DURATION_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 600,
];

/** Something whose current count the scrape reads: the sessions, terminals or tunnels open. */
export interface Counted {
  readonly size: number;
}

/**
 * The sandbox's Prometheus metrics, in a registry of their own (not prom-client's global one), one
 * per sandbox the composition root builds. They count and time; no label carries workspace
 * content (no path, command or session id): tools are labelled by name from the fixed tool set.
 */
export class SandboxMetrics {
  readonly registry = new Registry();
  private readonly toolCalls: Counter<'tool' | 'result'>;
  private readonly toolDuration: Histogram<'tool'>;
  private readonly tunnelBytes: Counter<'direction'>;
  private readonly counted = {
    sessions: [] as Counted[],
    terminals: [] as Counted[],
    tunnels: [] as Counted[],
  };

  constructor(options: { processMetrics?: boolean } = {}) {
    const registers = [this.registry];
    this.toolCalls = new Counter({
      name: METRIC_NAMES.toolCalls,
      help: 'MCP tool calls by tool and result (ok, error: an isError result, failed: a JSON-RPC error).',
      labelNames: ['tool', 'result'],
      registers,
    });
    this.toolDuration = new Histogram({
      name: METRIC_NAMES.toolDuration,
      help: 'Time to answer one MCP tool call, by tool.',
      labelNames: ['tool'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.tunnelBytes = new Counter({
      name: METRIC_NAMES.tunnelBytes,
      help: 'Bytes through port-forward tunnels: in (client to target) and out (target to client).',
      labelNames: ['direction'],
      registers,
    });
    // Read at scrape time, so that what opens and closes need not report each change.
    this.countGauge(METRIC_NAMES.sessions, 'MCP sessions open.', this.counted.sessions);
    this.countGauge(METRIC_NAMES.terminals, 'Terminals (/api/exec) open.', this.counted.terminals);
    this.countGauge(METRIC_NAMES.tunnels, 'Port-forward tunnels open.', this.counted.tunnels);
    if (options.processMetrics ?? true) {
      collectProcessMetrics(this.registry, 'paddock_sandbox_');
    }
  }

  /** Reports how many MCP sessions `sessions` holds at every scrape. */
  trackSessions(sessions: Counted): void {
    this.counted.sessions.push(sessions);
  }

  trackTerminals(terminals: Counted): void {
    this.counted.terminals.push(terminals);
  }

  trackTunnels(tunnels: Counted): void {
    this.counted.tunnels.push(tunnels);
  }

  observeToolCall(tool: string, result: ToolCallResult, seconds: number): void {
    this.toolCalls.inc({ tool, result });
    this.toolDuration.observe({ tool }, seconds);
  }

  countTunnelBytes(direction: TunnelDirection, bytes: number): void {
    this.tunnelBytes.inc({ direction }, bytes);
  }

  /** The Prometheus text exposition and its content type. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  private countGauge(name: string, help: string, sources: readonly Counted[]): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(sources.reduce((sum, source) => sum + source.size, 0));
      },
    });
  }
}
