// Imports end in .js: the unit tests type-check this module as Node code, outside the bundler.
import { newNameProblem, type Checked } from './form-rules.js';
import type { PromptPackSpec } from './types.js';

/** The prompt pack form as typed. */
export interface PromptPackDraft {
  isNew: boolean;
  name: string;
  /** The names of the workspace's prompt packs, which a new one may not take. */
  taken: readonly string[];
  description: string;
  systemPrompt: string;
  prompts: readonly { name: string; content: string }[];
}

/** The spec to save, checked in the order of the form's fields. */
export function promptPackSpecOf(draft: PromptPackDraft): Checked<PromptPackSpec> {
  const nameProblem = newNameProblem(draft.isNew, draft.name, draft.taken, 'prompt pack');
  if (nameProblem !== null) return { ok: false, problem: nameProblem };
  if (draft.systemPrompt.trim() === '') {
    return { ok: false, problem: 'The system prompt is required.' };
  }
  const promptNames = draft.prompts.map((p) => p.name.trim());
  if (promptNames.some((n) => n === ''))
    return { ok: false, problem: 'Every prompt needs a name.' };
  const twice = promptNames.find((n, i) => promptNames.indexOf(n) !== i);
  if (twice !== undefined) {
    return { ok: false, problem: `Two prompts are named “${twice}”: prompt names must differ.` };
  }
  const spec: PromptPackSpec = {
    // The system prompt goes as written: its whitespace may matter to the model.
    systemPrompt: draft.systemPrompt,
    prompts: draft.prompts.map((p) => ({ name: p.name.trim(), content: p.content })),
  };
  const description = draft.description.trim();
  if (description !== '') spec.description = description;
  return { ok: true, value: spec };
}
