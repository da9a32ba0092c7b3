// Imports end in .js: the unit tests type-check this module as Node code, outside the bundler.
import { objectNameProblem } from './object-names.js';

/** What the workspace's forms share: a checked value, the name of a new object, "saved". */

/** A form's value once checked, or the sentence saying what to fix. */
export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

/**
 * Why an object cannot be saved under this name, or null. Only a new object's name is checked:
 * an edited one keeps its own. `noun` names the kind ("prompt pack").
 */
export function newNameProblem(
  isNew: boolean,
  name: string,
  taken: readonly string[],
  noun: string,
): string | null {
  if (!isNew) return null;
  const invalid = objectNameProblem(name);
  if (invalid !== null) return invalid;
  return taken.includes(name)
    ? `A ${noun} named “${name}” already exists: edit it, or choose another name.`
    : null;
}

/** What a form says once it saved an object: created, or saved. */
export function savedMessage(isNew: boolean, noun: string, name: string): string {
  return `${isNew ? 'Created' : 'Saved'} the ${noun} “${name}”.`;
}
