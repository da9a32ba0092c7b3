import { z } from 'zod';
import {
  HeadTailText,
  OUTPUT_HEAD_CHARS,
  OUTPUT_TAIL_CHARS,
  type GroupExit,
} from '../process-group.js';
import {
  MAX_RUNNING_SHELLS,
  SHELL_BUFFER_CHARS,
  type BackgroundShell,
  type ShellState,
} from '../shells.js';
import { defineTool, ToolFailure, type ToolContext } from '../tool.js';

/** How long a foreground command may run when the caller names no timeout. */
export const DEFAULT_TIMEOUT_MS = 120_000;
/** The longest timeout a caller may ask for. */
export const MAX_TIMEOUT_MS = 600_000;
/** The exit code reported for a command killed at its timeout (as coreutils' `timeout` does). */
export const TIMEOUT_EXIT_CODE = 124;

const bashInput = z.object({
  command: z
    .string()
    .min(1)
    .describe(
      'The command line to run with `bash -c`, in the workspace root, with stdin closed. ' +
        'Combine steps with && and quote paths that contain spaces.',
    ),
  timeout: z
    .number()
    .int()
    .min(1)
    .max(MAX_TIMEOUT_MS)
    .default(DEFAULT_TIMEOUT_MS)
    .describe(
      `Milliseconds before the command and every process it started are killed (reported as exit ` +
        `code ${TIMEOUT_EXIT_CODE}). Default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_TIMEOUT_MS}. ` +
        'Does not apply with run_in_background.',
    ),
  description: z
    .string()
    .optional()
    .describe('What the command does, in a few words (e.g. "Run the unit tests"), for logs.'),
  run_in_background: z
    .boolean()
    .default(false)
    .describe(
      'Start the command and return at once with a shell id, for servers, watchers and long ' +
        'builds; read its output later with BashOutput and stop it with KillShell.',
    ),
});

const shellIdInput = (purpose: string) =>
  z.object({
    shell_id: z
      .string()
      .min(1)
      .describe(
        `The id Bash returned when it started the background shell ${purpose}, e.g. "shell_1".`,
      ),
  });

export const bashTool = defineTool({
  name: 'Bash',
  description:
    'Runs a bash command in the workspace root and returns its output (stdout and stderr ' +
    'interleaved) followed by its exit code; a non-zero exit is reported as an error with the ' +
    `output. Long output keeps its first ${OUTPUT_HEAD_CHARS} and last ` +
    `${OUTPUT_TAIL_CHARS} characters. The command and everything it starts are killed ` +
    'when it exits, at the timeout, or when the call is cancelled; use run_in_background for ' +
    `anything that must keep running (at most ${MAX_RUNNING_SHELLS} at once per session).`,
  input: bashInput,
  run(args, ctx) {
    return args.run_in_background
      ? startInBackground(args, ctx)
      : runInForeground(args.command, args.timeout, ctx);
  },
});

export const bashOutputTool = defineTool({
  name: 'BashOutput',
  description:
    'Returns what a background shell started by Bash printed since the last BashOutput call for ' +
    'it (only new output), then its state: running, exited with code N, or killed.',
  input: shellIdInput('to read'),
  run(args, ctx) {
    // Through a promise, so that an unknown id rejects like every other tool failure.
    return Promise.resolve().then(() => readNewOutput(ctx.session.shells.require(args.shell_id)));
  },
});

export const killShellTool = defineTool({
  name: 'KillShell',
  description:
    'Stops a background shell started by Bash: terminates its whole process group (SIGTERM, then ' +
    'SIGKILL if needed) and waits until it is gone. Its unread output stays readable with BashOutput.',
  input: shellIdInput('to stop'),
  async run(args, ctx) {
    const shell = ctx.session.shells.require(args.shell_id);
    const state = shell.state;
    if (state.kind !== 'running') {
      return `${shell.id} is not running (${describeState(state)}); nothing to kill.`;
    }
    await shell.kill();
    return `${shell.id} killed: its process group is gone.`;
  },
});

async function runInForeground(
  command: string,
  timeoutMs: number,
  ctx: ToolContext,
): Promise<string> {
  throwIfCancelled(ctx);
  const output = new HeadTailText();
  const group = ctx.session.groups.spawn(command, {
    cwd: ctx.workspace.root,
    env: ctx.childEnv,
    onOutput: (text) => output.append(text),
  });
  await group.started;

  let stopped: 'timeout' | 'cancelled' | undefined;
  const stop = (reason: 'timeout' | 'cancelled') => {
    stopped ??= reason;
    void group.terminate();
  };
  const timer = setTimeout(() => stop('timeout'), timeoutMs);
  const onAbort = () => stop('cancelled');
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  if (ctx.signal.aborted) onAbort(); // aborted while bash was starting
  let exit: GroupExit;
  try {
    exit = await group.done;
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onAbort);
  }

  const body = output.isEmpty ? '(no output)\n' : withNewline(output.toString());
  if (stopped === 'timeout') {
    throw new ToolFailure(
      `${body}exit code: ${TIMEOUT_EXIT_CODE} (timed out after ${timeoutMs} ms)`,
    );
  }
  if (stopped === 'cancelled') {
    throw new ToolFailure(`${body}${exitLine(exit)} (the call was cancelled)`);
  }
  const text = `${body}${exitLine(exit)}`;
  if (exit.code !== 0) throw new ToolFailure(text);
  return text;
}

async function startInBackground(
  args: { command: string; description?: string | undefined },
  ctx: ToolContext,
): Promise<string> {
  throwIfCancelled(ctx);
  const shell = await ctx.session.shells.start(args.command, {
    cwd: ctx.workspace.root,
    env: ctx.childEnv,
    description: args.description,
  });
  const what = args.description ? ` (${args.description})` : '';
  return (
    `Started background shell ${shell.id}${what}. Use BashOutput with shell_id "${shell.id}" to ` +
    'read its new output and see whether it is still running, and KillShell to stop it.'
  );
}

function readNewOutput(shell: BackgroundShell): string {
  // The state first: once it says finished, all of the output has arrived and is taken below.
  const state = shell.state;
  const { text, dropped } = shell.takeOutput();
  let result =
    dropped > 0
      ? `[${dropped} characters of earlier output were dropped: only the newest ` +
        `${SHELL_BUFFER_CHARS} are kept between reads]\n`
      : '';
  result += text === '' ? '(no new output)\n' : withNewline(capped(text));
  return `${result}state: ${describeState(state)}`;
}

function throwIfCancelled(ctx: ToolContext): void {
  if (ctx.signal.aborted)
    throw new ToolFailure('The call was cancelled before the command started.');
}

function exitLine(exit: GroupExit): string {
  if (exit.code !== null) return `exit code: ${exit.code}`;
  if (exit.signal !== null) return `killed by signal ${exit.signal}`;
  return 'exit code: unknown';
}

function describeState(state: ShellState): string {
  switch (state.kind) {
    case 'running':
      return 'running';
    case 'killed':
      return 'killed';
    case 'exited':
      return state.exit.code !== null
        ? `exited with code ${state.exit.code}`
        : `killed by signal ${state.exit.signal ?? 'unknown'}`;
  }
}

/** Output shown to the agent keeps its head and tail, like a foreground command's. */
function capped(text: string): string {
  const kept = new HeadTailText();
  kept.append(text);
  return kept.toString();
}

function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}
