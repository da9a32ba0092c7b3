// What a run is asked to do: free text, or a named prompt of the PromptPack with its variables
// filled in. Pure: the HTTP edge answers each refusal 400 with its sentence.

/** Characters of a task, free or made from a prompt; a longer one is refused. */
export const MAX_TASK_CHARS = 100_000;
/** Variables of one prompt, and characters of each value. */
export const MAX_VARIABLES = 64;
export const MAX_VARIABLE_CHARS = 20_000;

/** `{{name}}` in a prompt's content, spaces inside the braces allowed. */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_-]*)\s*\}\}/g;

export interface TaskRequest {
  task?: string;
  prompt?: { name: string; variables?: Record<string, string> };
}

export interface NamedPrompt {
  name: string;
  content: string;
}

export type TaskDecision = { ok: true; text: string } | { ok: false; message: string };

/** The variables a prompt's content asks for, each once, in order of first use. */
export function variablesOf(content: string): string[] {
  return [...new Set([...content.matchAll(PLACEHOLDER)].map((match) => match[1]!))];
}

/** The task text of a request, or why it is refused. */
export function taskOf(request: TaskRequest, prompts: readonly NamedPrompt[]): TaskDecision {
  const { task, prompt } = request;
  if ((task === undefined) === (prompt === undefined))
    return { ok: false, message: 'give either task (free text) or prompt (a prompt of the pack)' };
  if (task !== undefined) return bounded(task);
  const chosen = prompts.find((p) => p.name === prompt!.name);
  if (chosen === undefined) {
    const names = prompts.map((p) => p.name).join(', ');
    return {
      ok: false,
      message: `the PromptPack has no prompt ${JSON.stringify(prompt!.name)} (it has: ${names || 'none'})`,
    };
  }
  const given = prompt!.variables ?? {};
  const wanted = variablesOf(chosen.content);
  const missing = wanted.filter((name) => !Object.hasOwn(given, name));
  if (missing.length > 0)
    return { ok: false, message: `missing variables of ${chosen.name}: ${missing.join(', ')}` };
  const unknown = Object.keys(given).filter((name) => !wanted.includes(name));
  if (unknown.length > 0)
    return { ok: false, message: `${chosen.name} has no variables ${unknown.join(', ')}` };
  if (Object.keys(given).length > MAX_VARIABLES)
    return { ok: false, message: `at most ${MAX_VARIABLES} variables` };
  const long = Object.keys(given).find((name) => given[name]!.length > MAX_VARIABLE_CHARS);
  if (long !== undefined)
    return { ok: false, message: `variable ${long} is over ${MAX_VARIABLE_CHARS} characters` };
  // One pass over the content: a value that itself looks like a placeholder stays as it is.
  return bounded(chosen.content.replace(PLACEHOLDER, (_match, name: string) => given[name]!));
}

function bounded(text: string): TaskDecision {
  if (text.trim() === '') return { ok: false, message: 'the task is empty' };
  if (text.length > MAX_TASK_CHARS)
    return { ok: false, message: `the task is over ${MAX_TASK_CHARS} characters` };
  return { ok: true, text };
}
