// The runs of one replica: each request checked and recorded, queued behind the run in progress,
// then played by the loop with the settings of the moment it was asked (a changed PromptPack
// applies to the next run), every event written to the store as it happens.
import { CodedError } from '@paddock/common';
import { runAgent, type AgentLimits } from '../loop.js';
import type { ModelClient } from '../model.js';
import type { TokenUsage } from '../pricing.js';
import type { SandboxTools } from '../sandbox-tools.js';
import { Interruption } from '../transcript.js';
import { RunQueue } from './run-queue.js';
import type { RunStore, RunSummary } from './run-store.js';
import { taskOf, type NamedPrompt, type TaskRequest } from './task.js';

/** The agent's errors, by code: the HTTP edge gives each its status. */
export type AgentErrorCode =
  'invalid_request' | 'not_found' | 'budget_exceeded' | 'queue_full' | 'unavailable';

export class AgentError extends CodedError {
  constructor(
    override readonly code: AgentErrorCode,
    message: string,
  ) {
    super(code, message);
    this.name = 'AgentError';
  }
}

/** What a run is played with, read when it is asked for. */
export interface RunSettings {
  model: string;
  system: string;
  prompts: readonly NamedPrompt[];
  limits: AgentLimits;
  /** The USD cost of one model call's usage. */
  price: (usage: TokenUsage) => number;
}

export interface RunnerOptions {
  store: RunStore;
  client: ModelClient;
  settings: () => Promise<RunSettings> | RunSettings;
  /** The sandbox's tools, connected for one run and closed after it. */
  tools: () => Promise<SandboxTools>;
  /** A reason to refuse runs and stop the current one at its next model call (the budget). */
  blocked: () => string | undefined;
  now: () => number;
  /** Each model call's cost, as it is recorded. */
  onSpend?: (usd: number) => void;
  /** Tool arguments as the transcript keeps them (the tool gets them as the model sent them). */
  scrub?: (value: unknown) => unknown;
  /** What could not be recorded (the store failing), for the log. */
  onError: (runId: string, error: unknown) => void;
  maxQueued?: number;
}

export type StartRequest = TaskRequest & { startedBy?: string };

/** Why the runs of a stopping agent ended. */
export const STOPPED_REASON = 'the agent stopped during the run';

export class Runner {
  private readonly queue: RunQueue;

  constructor(private readonly options: RunnerOptions) {
    this.queue = new RunQueue(options.onError, options.maxQueued);
  }

  /** Checks and records a run, then queues it; its summary and its place in line (0: now). */
  async start(request: StartRequest): Promise<{ run: RunSummary; position: number }> {
    const { store } = this.options;
    const blocked = this.options.blocked();
    if (blocked !== undefined) throw new AgentError('budget_exceeded', blocked);
    const settings = await this.options.settings();
    const task = taskOf(request, settings.prompts);
    if (!task.ok) throw new AgentError('invalid_request', task.message);
    if (this.queue.full)
      throw new AgentError('queue_full', `${this.queue.queued.length} runs are already waiting`);
    const run = await store.create({
      task: task.text,
      ...(request.prompt
        ? { prompt: { name: request.prompt.name, variables: request.prompt.variables ?? {} } }
        : {}),
      ...(request.startedBy === undefined ? {} : { startedBy: request.startedBy }),
    });
    const position = this.queue.enqueue(run.id, (signal) =>
      this.play(run.id, task.text, settings, signal),
    );
    return { run, position };
  }

  /**
   * Cancels a run: the one in progress stops its model stream and its tool, a waiting one ends
   * at once. A finished run is answered as it is; an unknown one is not_found.
   */
  async cancel(id: string, reason = 'cancelled'): Promise<RunSummary> {
    const { store } = this.options;
    if (store.get(id) === undefined) throw new AgentError('not_found', `no run ${id}`);
    const where = this.queue.cancel(id, reason);
    if (where === 'waiting')
      await store.append(id, { type: 'outcome', status: 'cancelled', reason });
    return store.get(id)!;
  }

  /** The run in progress and those waiting, in order. */
  get line(): { running: string | undefined; queued: string[] } {
    return { running: this.queue.running, queued: this.queue.queued };
  }

  /** Resolves when no run is in progress or waiting. */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  /**
   * Stops (the agent is shutting down): the run in progress and the waiting ones end
   * `interrupted`, as they would after a crash; nothing resumes them.
   */
  async stop(reason = STOPPED_REASON): Promise<void> {
    for (const id of await this.queue.stop(new Interruption(reason))) {
      await this.options.store.append(id, { type: 'outcome', status: 'interrupted', reason });
    }
  }

  private async play(
    id: string,
    task: string,
    settings: RunSettings,
    signal: AbortSignal,
  ): Promise<void> {
    const { store, onSpend } = this.options;
    let written: Promise<unknown> = Promise.resolve();
    let tools: SandboxTools;
    try {
      tools = await this.options.tools();
    } catch (error) {
      await store.append(id, {
        type: 'outcome',
        status: 'failed',
        reason: `the sandbox's tools could not be reached: ${(error as Error).message}`,
      });
      return;
    }
    try {
      await runAgent({
        client: this.options.client,
        model: settings.model,
        system: settings.system,
        task,
        tools: tools.tools,
        limits: settings.limits,
        now: this.options.now,
        signal,
        price: settings.price,
        beforeModelCall: this.options.blocked,
        ...(this.options.scrub === undefined ? {} : { scrub: this.options.scrub }),
        onEvent: ({ seq: _seq, ...entry }) => {
          // The store numbers the events; its writes keep the loop's order.
          written = store.append(id, entry);
          // A failed write fails every later one: the last, awaited below, reports it.
          written.catch(() => undefined);
          if (entry.type === 'usage' && entry.usd > 0) onSpend?.(entry.usd);
        },
      });
    } finally {
      await written;
      await tools.close();
    }
  }
}
