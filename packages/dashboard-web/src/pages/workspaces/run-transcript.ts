// Imports end in .js: the unit tests type-check this module as Node code, outside the bundler.
import type { OutcomeStatus, RunOutcome, RunUsage } from './types.js';

/**
 * A run's transcript as the Runs tab shows it: the run's server-sent events (packages/agent's
 * TranscriptEvent) folded, in order and each once, into text blocks and tool calls, the usage summed
 * and the outcome. Pure: the tab feeds it what its EventSource receives.
 */

export type TranscriptEvent = { seq: number } & (
  | { type: 'task'; text: string }
  | { type: 'text'; delta: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'tool_result'; id: string; text: string; isError: boolean; truncated: boolean }
  | ({ type: 'usage' } & RunUsage)
  | ({ type: 'outcome' } & RunOutcome)
);

export interface ToolResultView {
  text: string;
  isError: boolean;
  /** The agent cut it for the model (a marker in the text says where). */
  truncated: boolean;
}

export type TranscriptItem =
  | {
      kind: 'text';
      /** The first event of the block. */
      seq: number;
      /** The assistant's deltas, concatenated. */
      text: string;
      /** Deltas were left out past MAX_TEXT_CHARS. */
      cut: boolean;
    }
  | {
      kind: 'tool';
      seq: number;
      id: string;
      name: string;
      arguments: unknown;
      /** The call's result, once it came. */
      result: ToolResultView | null;
    };

export interface TranscriptView {
  /** The last event folded in: events up to it are not folded again. */
  lastSeq: number;
  task: string | null;
  items: TranscriptItem[];
  /** Items dropped from the start past MAX_ITEMS. */
  omitted: number;
  /** Summed over the run's model calls. */
  usage: RunUsage & { calls: number };
  outcome: RunOutcome | null;
}

/** Items kept: a very long run shows its latest steps, with how many earlier ones were dropped. */
export const MAX_ITEMS = 2_000;
/** Characters of one text block kept: a runaway answer does not grow the page without end. */
export const MAX_TEXT_CHARS = 200_000;

export const EMPTY_TRANSCRIPT: TranscriptView = {
  lastSeq: 0,
  task: null,
  items: [],
  omitted: 0,
  usage: { input: 0, output: 0, usd: 0, calls: 0 },
  outcome: null,
};

const STATUSES = new Set<string>([
  'completed',
  'failed',
  'cancelled',
  'limit',
  'blocked',
  'interrupted',
]);

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/**
 * A server-sent event's data as a transcript event, or undefined when it is not one. The number
 * comes from the data, else from the event's id.
 */
export function parseTranscriptEvent(id: string, data: string): TranscriptEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  const seq = isCount(v.seq) ? v.seq : /^\d+$/.test(id) ? Number(id) : NaN;
  if (!Number.isSafeInteger(seq) || seq < 1) return undefined;
  switch (v.type) {
    case 'task':
      return typeof v.text === 'string' ? { seq, type: 'task', text: v.text } : undefined;
    case 'text':
      return typeof v.delta === 'string' ? { seq, type: 'text', delta: v.delta } : undefined;
    case 'tool_call':
      return typeof v.id === 'string' && typeof v.name === 'string'
        ? { seq, type: 'tool_call', id: v.id, name: v.name, arguments: v.arguments }
        : undefined;
    case 'tool_result':
      return typeof v.id === 'string' && typeof v.text === 'string'
        ? {
            seq,
            type: 'tool_result',
            id: v.id,
            text: v.text,
            isError: v.isError === true,
            truncated: v.truncated === true,
          }
        : undefined;
    case 'usage':
      return isCount(v.input) && isCount(v.output) && isCount(v.usd)
        ? { seq, type: 'usage', input: v.input, output: v.output, usd: v.usd }
        : undefined;
    case 'outcome': {
      if (typeof v.status !== 'string' || !STATUSES.has(v.status)) return undefined;
      const outcome: RunOutcome = { status: v.status as OutcomeStatus };
      if (typeof v.reason === 'string') outcome.reason = v.reason;
      if (typeof v.code === 'string') outcome.code = v.code;
      return { seq, type: 'outcome', ...outcome };
    }
    default:
      return undefined;
  }
}

/** The items with one more, the oldest dropped past `max`. */
function pushed(view: TranscriptView, item: TranscriptItem, max: number): TranscriptView {
  const items = [...view.items, item];
  const over = Math.max(0, items.length - max);
  return { ...view, items: over === 0 ? items : items.slice(over), omitted: view.omitted + over };
}

/**
 * The view with one more event folded in. An event at or before `lastSeq` (a replay after
 * reconnecting) changes nothing: the same view comes back.
 */
export function foldEvent(
  view: TranscriptView,
  event: TranscriptEvent,
  limits: { maxItems: number; maxTextChars: number } = {
    maxItems: MAX_ITEMS,
    maxTextChars: MAX_TEXT_CHARS,
  },
): TranscriptView {
  if (event.seq <= view.lastSeq) return view;
  const next: TranscriptView = { ...view, lastSeq: event.seq };
  switch (event.type) {
    case 'task':
      return { ...next, task: event.text };
    case 'text': {
      const last = next.items.at(-1);
      if (last?.kind === 'text') {
        const room = limits.maxTextChars - last.text.length;
        const cut = last.cut || event.delta.length > room;
        const text = last.text + (room > 0 ? event.delta.slice(0, room) : '');
        return { ...next, items: [...next.items.slice(0, -1), { ...last, text, cut }] };
      }
      const cut = event.delta.length > limits.maxTextChars;
      const text = event.delta.slice(0, limits.maxTextChars);
      return pushed(next, { kind: 'text', seq: event.seq, text, cut }, limits.maxItems);
    }
    case 'tool_call':
      return pushed(
        next,
        {
          kind: 'tool',
          seq: event.seq,
          id: event.id,
          name: event.name,
          arguments: event.arguments,
          result: null,
        },
        limits.maxItems,
      );
    case 'tool_result': {
      const result = { text: event.text, isError: event.isError, truncated: event.truncated };
      // The latest call with this id still waiting: ids are the model's and may repeat across turns.
      let at = next.items.length - 1;
      while (at >= 0) {
        const item = next.items[at]!;
        if (item.kind === 'tool' && item.id === event.id && item.result === null) break;
        at--;
      }
      if (at < 0) {
        // Its call was dropped past MAX_ITEMS (or never sent): the result still shows.
        return pushed(
          next,
          { kind: 'tool', seq: event.seq, id: event.id, name: '', arguments: undefined, result },
          limits.maxItems,
        );
      }
      const items = [...next.items];
      items[at] = { ...(items[at] as Extract<TranscriptItem, { kind: 'tool' }>), result };
      return { ...next, items };
    }
    case 'usage':
      return {
        ...next,
        usage: {
          input: next.usage.input + event.input,
          output: next.usage.output + event.output,
          usd: next.usage.usd + event.usd,
          calls: next.usage.calls + 1,
        },
      };
    case 'outcome': {
      const outcome: RunOutcome = { status: event.status };
      if (event.reason !== undefined) outcome.reason = event.reason;
      if (event.code !== undefined) outcome.code = event.code;
      return { ...next, outcome };
    }
  }
}

/** The view with the events folded in, in the order given. */
export function foldEvents(
  events: readonly TranscriptEvent[],
  view: TranscriptView = EMPTY_TRANSCRIPT,
): TranscriptView {
  return events.reduce((folded, event) => foldEvent(folded, event), view);
}

/** The workspace's root in an agent's pod: the file tools take paths absolute inside it too. */
export const WORKSPACE_ROOT = '/workspace';

/**
 * The sandbox's tools that act on one file, and the argument naming it
 * (packages/sandbox/src/mcp/tools: Read, Write, Edit).
 */
const FILE_TOOLS: Readonly<Record<string, string>> = {
  Read: 'file_path',
  Write: 'file_path',
  Edit: 'file_path',
};

/** Characters of a call's one-line summary. */
export const MAX_SUMMARY_CHARS = 80;

/** The argument that best says what a call of each sandbox tool does. */
const SUMMARY_ARGUMENT: Readonly<Record<string, string>> = {
  ...FILE_TOOLS,
  Bash: 'command',
  Glob: 'pattern',
  Grep: 'pattern',
  LS: 'path',
};

const argumentsObject = (args: unknown): Record<string, unknown> | undefined =>
  typeof args === 'object' && args !== null && !Array.isArray(args)
    ? (args as Record<string, unknown>)
    : undefined;

/** A path of the workspace as the Files view takes it (relative to its root), or null. */
export function workspacePath(path: string): string | null {
  let rest = path.trim();
  if (rest === WORKSPACE_ROOT) return null;
  if (rest.startsWith(`${WORKSPACE_ROOT}/`)) rest = rest.slice(WORKSPACE_ROOT.length + 1);
  else if (rest.startsWith('/')) return null;
  const parts = rest.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length === 0 || parts.includes('..')) return null;
  return parts.join('/');
}

/** The workspace file a call of a file tool names, or null (another tool, or a path outside). */
export function fileOfCall(name: string, args: unknown): string | null {
  const key = FILE_TOOLS[name];
  const value = key === undefined ? undefined : argumentsObject(args)?.[key];
  return typeof value === 'string' ? workspacePath(value) : null;
}

/**
 * The file a call touched, to be opened in the Files view: its file tool's path once the call
 * succeeded (a failed Read or Write touched nothing; one still running may not have yet).
 */
export function touchedFile(item: TranscriptItem): string | null {
  if (item.kind !== 'tool' || item.result === null || item.result.isError) return null;
  return fileOfCall(item.name, item.arguments);
}

const oneLine = (text: string, max: number) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/** A call's arguments in a few words: the telling argument of a sandbox tool, else compact JSON. */
export function callSummary(name: string, args: unknown, max = MAX_SUMMARY_CHARS): string {
  const key = SUMMARY_ARGUMENT[name];
  const value = key === undefined ? undefined : argumentsObject(args)?.[key];
  if (typeof value === 'string') return oneLine(value, max);
  if (args === undefined) return '';
  const object = argumentsObject(args);
  if (object !== undefined && Object.keys(object).length === 0) return '';
  return oneLine(JSON.stringify(args) ?? '', max);
}

/** A call's arguments as the transcript shows them unfolded: indented JSON. */
export function prettyArguments(args: unknown): string {
  if (args === undefined) return '(no arguments)';
  // Arguments come from JSON: they stringify (undefined only for what JSON cannot hold).
  return JSON.stringify(args, null, 2) ?? '';
}
