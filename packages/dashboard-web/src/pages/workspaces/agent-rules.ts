// Imports end in .js: the unit tests type-check this module as Node code, outside the bundler.
import type { Checked } from './form-rules.js';
import { objectNameProblem } from './object-names.js';
import type { Agent, NewAgent, Permissions, PromptPack } from './types.js';

/** What the agents tab decides: who may change what, the forms' checks, what it says. */

/** Most replicas one request may ask for (the workspace's quota may hold fewer). */
export const MAX_REPLICAS = 1000;

const REPLICAS_PROBLEM = 'Replicas must be a whole number, 0 or more.';

/** The replicas typed, when they are a whole number, 0 or more. */
function wholeReplicas(text: string): number | null {
  const wanted = Number(text);
  return text.trim() === '' || !Number.isInteger(wanted) || wanted < 0 ? null : wanted;
}

/** The replicas to scale an agent to, as typed in its row. */
export function scaleTarget(text: string): Checked<number> {
  const wanted = wholeReplicas(text);
  if (wanted === null) return { ok: false, problem: REPLICAS_PROBLEM };
  if (wanted > MAX_REPLICAS) {
    return { ok: false, problem: `Replicas can be at most ${MAX_REPLICAS}.` };
  }
  return { ok: true, value: wanted };
}

/** The new agent form as typed. */
export interface AgentDraft {
  name: string;
  /** The prompt pack chosen (see chosenPack). */
  promptPack: string;
  replicas: string;
  model: string;
}

/** The prompt pack the form shows as chosen: the one picked, else the first there is. */
export function chosenPack(picked: string, choices: Pick<PromptPack, 'name'>[]): string {
  return picked === '' ? (choices[0]?.name ?? '') : picked;
}

/** The agent to create, checked in the order of the form's fields. */
export function newAgentOf(draft: AgentDraft): Checked<NewAgent> {
  const nameProblem = objectNameProblem(draft.name);
  if (nameProblem !== null) return { ok: false, problem: nameProblem };
  if (draft.promptPack === '') {
    return { ok: false, problem: 'Choose the prompt pack the agent follows.' };
  }
  const replicas = wholeReplicas(draft.replicas);
  if (replicas === null) return { ok: false, problem: REPLICAS_PROBLEM };
  const agent: NewAgent = { name: draft.name, promptPack: draft.promptPack, replicas };
  const model = draft.model.trim();
  if (model !== '') agent.model = model;
  return { ok: true, value: agent };
}

/** Whether the agents table has an actions column: some agent could be scaled or deleted. */
export function hasRowActions(permissions: Pick<Permissions, 'scaleAgents' | 'deleteAgents'>) {
  return permissions.scaleAgents || permissions.deleteAgents;
}

/** The highest replicas the inputs offer: the workspace's quota, else what one request may ask. */
export function replicasCeiling(maxPerAgent: number | undefined): number {
  return maxPerAgent ?? MAX_REPLICAS;
}

/** A row's key: a new wanted count from the cluster starts the row (and its input) afresh. */
export function agentRowKey(agent: Pick<Agent, 'name' | 'replicas'>): string {
  return `${agent.name}:${agent.replicas}`;
}

/** How many of the agents the table holds, when it holds only some ('' when all). */
export function shownOfTotal(shown: number, total: number): string {
  return total > shown ? ` (the first ${shown} of ${total})` : '';
}

/** What the empty table says about creating an agent, by whether the person may. */
export function noAgentsHint(canCreate: boolean): string {
  return canCreate
    ? ' Create one with “Create agent”.'
    : ' An editor or owner of the workspace can create one.';
}

/** A prompt pack as the form offers it: its name, and its description when it has one. */
export function packLabel(pack: Pick<PromptPack, 'name' | 'description'>): string {
  return `${pack.name}${pack.description !== null ? ` — ${pack.description}` : ''}`;
}

export const agentMessages = {
  created: (name: string) => `Created the agent “${name}”.`,
  deleted: (name: string) => `Deleted the agent “${name}”.`,
  scaled: (name: string, replicas: number) =>
    `Scaled the agent “${name}” to ${replicas} ${replicas === 1 ? 'replica' : 'replicas'}.`,
};
