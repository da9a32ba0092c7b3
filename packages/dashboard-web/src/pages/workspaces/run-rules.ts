// Imports end in .js: the unit tests type-check this module as Node code, outside the bundler.
import type { Checked } from './form-rules.js';
import { podPath, type PodRef } from './sandbox-door.js';
import type {
  ModelProvider,
  OutcomeStatus,
  Prompt,
  Run,
  RunLimits,
  RunList,
  RunOutcome,
  StartRun,
} from './types.js';

/** What the Runs tab decides: the runs API's paths, statuses, money, the start form, outcomes. */

/** Characters of a task, free or made from a prompt (the agent refuses a longer one). */
export const MAX_TASK_CHARS = 100_000;
/** Characters of a task shown in the list of runs. */
export const MAX_EXCERPT_CHARS = 100;

const seg = (value: string) => encodeURIComponent(value);

/** The path of a pod's runs (`…/pods/{pod}/runs`), or of one run and its sub-route. */
export function runsPath(ref: PodRef, run?: { id: string; route?: 'events' | 'cancel' }): string {
  const base = `${podPath(ref)}/runs`;
  if (run === undefined) return base;
  return run.route === undefined ? `${base}/${seg(run.id)}` : `${base}/${seg(run.id)}/${run.route}`;
}

export type RunStatus = 'queued' | 'running' | OutcomeStatus;

/** Where a run is: its outcome once it ended, else running or waiting in line. */
export function runStatus(
  run: Pick<Run, 'id' | 'outcome'>,
  list: Omit<RunList, 'runs'>,
): RunStatus {
  if (run.outcome !== undefined) return run.outcome.status;
  return list.running === run.id ? 'running' : 'queued';
}

/** Whether a run can still be cancelled: it has not ended. */
export function isCancellable(status: RunStatus): boolean {
  return status === 'queued' || status === 'running';
}

const STATUS_WORDS: Record<RunStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
  limit: 'Stopped at a limit',
  blocked: 'Blocked',
  interrupted: 'Interrupted',
};

/** A status in a word or two. */
export function statusText(status: RunStatus): string {
  return STATUS_WORDS[status];
}

/** The badge tone of a status: ok, warn or bad. */
export function statusTone(status: RunStatus): 'ok' | 'warn' | 'bad' {
  switch (status) {
    case 'completed':
    case 'running':
      return 'ok';
    case 'failed':
    case 'blocked':
      return 'bad';
    default:
      return 'warn';
  }
}

/** The runs, newest first (ties by id, so the order is stable). */
export function newestFirst(runs: readonly Run[]): Run[] {
  return [...runs].sort((a, b) => {
    const byTime = Date.parse(b.createdAt) - Date.parse(a.createdAt);
    if (byTime !== 0 && !Number.isNaN(byTime)) return byTime;
    return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
  });
}

/** A task's first line, cut to `max` characters. */
export function taskExcerpt(task: string, max = MAX_EXCERPT_CHARS): string {
  const line = task.trim().split('\n', 1)[0]!.trim();
  const more = line.length < task.trim().length;
  if (line.length > max) return `${line.slice(0, max - 1)}…`;
  return more ? `${line} …` : line;
}

/** US dollars: four decimals below a cent (a run often costs less), else two. */
export function runCost(usd: number): string {
  if (!Number.isFinite(usd)) return '—';
  return usd > 0 && usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** A count of tokens with thousands separated: `12,345`. */
export function tokenCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** A run's usage in words: `1,200 tokens in, 300 out · $0.0042`. */
export function usageText(usage: { input: number; output: number; usd: number }): string {
  return `${tokenCount(usage.input)} tokens in, ${tokenCount(usage.output)} out · ${runCost(usage.usd)}`;
}

/** `{{name}}` in a prompt's content, spaces inside the braces allowed (as the agent reads it). */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_-]*)\s*\}\}/g;

/** The variables a prompt's content asks for, each once, in order of first use. */
export function variablesOf(content: string): string[] {
  return [...new Set([...content.matchAll(PLACEHOLDER)].map((match) => match[1]!))];
}

/** The start form as filled in. */
export type RunDraft =
  | { mode: 'task'; task: string }
  | { mode: 'prompt'; name: string; values: Readonly<Record<string, string>> };

/**
 * The body of POST …/runs, or what to fix first. A prompt sends exactly its variables (a value
 * left empty is sent empty: the agent accepts it); the agent checks everything again.
 */
export function startRunOf(draft: RunDraft, prompts: readonly Prompt[]): Checked<StartRun> {
  if (draft.mode === 'task') {
    if (draft.task.trim() === '') return { ok: false, problem: 'Write the task for the agent.' };
    if (draft.task.length > MAX_TASK_CHARS) {
      return {
        ok: false,
        problem: `The task is ${draft.task.length.toLocaleString('en-US')} characters long: at most ${MAX_TASK_CHARS.toLocaleString('en-US')} are accepted.`,
      };
    }
    return { ok: true, value: { task: draft.task } };
  }
  const prompt = prompts.find((p) => p.name === draft.name);
  if (prompt === undefined) return { ok: false, problem: 'Choose a prompt of the pack.' };
  const names = variablesOf(prompt.content);
  if (names.length === 0) return { ok: true, value: { prompt: { name: prompt.name } } };
  const variables: Record<string, string> = {};
  for (const name of names) variables[name] = draft.values[name] ?? '';
  return { ok: true, value: { prompt: { name: prompt.name, variables } } };
}

/**
 * Why starting or cancelling a run failed, as a sentence. The agent's own refusals come with
 * their message; a budget that blocks runs says so first, in so many words.
 */
export function runErrorSentence(error: { code: string; message: string }): string {
  const message = ended(error.message);
  switch (error.code) {
    case 'budget_exceeded':
      return /^budget exceeded/i.test(message)
        ? sentenceOf(message)
        : `Budget exceeded: ${message}`;
    case 'queue_full':
      return `Too many runs are waiting for this pod: ${message} Try again once some have finished.`;
    case 'invalid_request':
      return `The agent refused this run: ${message}`;
    case 'forbidden':
      return `You are not allowed to do this here: ${message}`;
    case 'not_found':
      return `Not found: ${message}`;
    case 'unavailable':
      return `The agent cannot be reached right now: ${message} Try again in a moment.`;
    default:
      return sentenceOf(message);
  }
}

/** A message ending with a full stop (its first letter as it was: it may be a name). */
function ended(text: string): string {
  const trimmed = text.trim();
  return trimmed === '' || /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** A message as a sentence: capitalised, ending with a full stop. */
function sentenceOf(text: string): string {
  const trimmed = ended(text);
  return trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
}

/** How a run ended, as the banner under its transcript says it. */
export function outcomeSentence(outcome: RunOutcome): string {
  const reason = outcome.reason === undefined ? '' : ended(outcome.reason);
  const why = (lead: string, fallback: string) => `${lead}: ${reason === '' ? fallback : reason}`;
  switch (outcome.status) {
    case 'completed':
      return reason === '' ? 'Completed.' : why('Completed', '');
    case 'failed': {
      const code = outcome.code === undefined ? '' : ` (${outcome.code})`;
      return `Failed${code}: ${reason === '' ? 'the run ended with an error.' : reason}`;
    }
    case 'cancelled':
      return reason === '' ? 'Cancelled.' : why('Cancelled', '');
    case 'limit':
      return why('Stopped at a limit', 'the run reached one of its limits.');
    case 'blocked':
      return why('Blocked', 'the agent refused to go on.');
    case 'interrupted':
      return why('Interrupted', 'the agent restarted during the run; nothing resumes it.');
  }
}

/** The AgentRuntime fields that give an agent a model, as the Runs tab shows them. */
export const PROVIDER_EXAMPLE = `spec:
  model: qwen2.5-coder:7b
  provider:
    type: openai                          # or anthropic
    baseURL: http://localhost:11434/v1    # a local Ollama; leave out for OpenAI itself
    apiKeySecretRef:
      name: model-api-key                 # a Secret in the same namespace
      key: apiKey                         # its key holding the API key (apiKey if left out)`;

/** The limits of each run when the AgentRuntime leaves them out (packages/kube: DEFAULT_RUN_LIMITS). */
export const DEFAULT_RUN_LIMITS = {
  maxTurns: 50,
  maxTokens: 2_000_000,
  maxWallTime: '30m',
} as const;

/** An agent's run limits in words, its defaults filled in. */
export function runLimitsText(limits: RunLimits | null | undefined): string {
  const turns = limits?.maxTurns ?? DEFAULT_RUN_LIMITS.maxTurns;
  const tokens = limits?.maxTokens ?? DEFAULT_RUN_LIMITS.maxTokens;
  const wall = limits?.maxWallTime ?? DEFAULT_RUN_LIMITS.maxWallTime;
  return `${tokenCount(turns)} model ${turns === 1 ? 'call' : 'calls'}, ${tokenCount(tokens)} tokens and ${wall} per run`;
}

/** An agent's model provider in words: none means its pods run the sandbox alone. */
export function providerText(provider: ModelProvider | null | undefined): string {
  if (provider === null || provider === undefined) return 'None: runs are off';
  return provider.model === undefined ? provider.type : `${provider.type} (${provider.model})`;
}
