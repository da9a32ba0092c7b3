// What a run is played with, read from the cluster when the run is asked for: the AgentRuntime's
// model, limits and prices, its PromptPack's system prompt and prompts. A changed pack applies
// to the next run; the run in progress keeps what it started with.
import {
  DEFAULT_RUN_LIMITS,
  KINDS,
  parseDuration,
  type AgentRuntime,
  type Kube,
  type PromptPack,
} from '@paddock/kube';
import { costOf } from '../pricing.js';
import type { PriceTable } from '../prices.js';
import { AgentError, type RunSettings } from './runner.js';

const kind = (name: string) => KINDS.find((k) => k.kind === name)!;

/** The AgentRuntime's `pricing`, as numbers (the CRD keeps them as decimal strings). */
export function priceOverrides(pricing: AgentRuntime['spec']['pricing']): PriceTable {
  return Object.fromEntries(
    Object.entries(pricing ?? {}).map(([model, price]) => [
      model,
      { input: Number(price.input), output: Number(price.output) },
    ]),
  );
}

/** The settings of a run, from the agent and its pack. */
export function settingsOf(agent: AgentRuntime, pack: PromptPack): RunSettings {
  const { model, runLimits, pricing } = agent.spec;
  if (model === undefined || model.trim() === '')
    throw new AgentError('unavailable', 'the AgentRuntime names no model: set spec.model');
  const wallTime = runLimits?.maxWallTime ?? DEFAULT_RUN_LIMITS.maxWallTime;
  const maxWallMs = parseDuration(wallTime);
  if (maxWallMs === undefined || maxWallMs <= 0)
    throw new AgentError('unavailable', `spec.runLimits.maxWallTime ${wallTime} is not a duration`);
  const overrides = priceOverrides(pricing);
  return {
    model,
    system: pack.spec.systemPrompt,
    prompts: pack.spec.prompts ?? [],
    limits: {
      maxTurns: runLimits?.maxTurns ?? DEFAULT_RUN_LIMITS.maxTurns,
      maxTokens: runLimits?.maxTokens ?? DEFAULT_RUN_LIMITS.maxTokens,
      maxWallMs,
    },
    price: (usage) => costOf(model, usage, overrides).usd,
  };
}

/** Reads the AgentRuntime and its PromptPack now. */
export async function readSettings(
  kube: Kube,
  agent: { namespace: string; name: string },
): Promise<RunSettings> {
  const runtime = await kube
    .resource<AgentRuntime>(kind('AgentRuntime'))
    .get(agent.name, agent.namespace);
  const packName = runtime.spec.promptPackRef.name;
  let pack: PromptPack;
  try {
    pack = await kube.resource<PromptPack>(kind('PromptPack')).get(packName, agent.namespace);
  } catch (error) {
    throw new AgentError(
      'unavailable',
      `the PromptPack ${packName} could not be read: ${(error as Error).message}`,
    );
  }
  return settingsOf(runtime, pack);
}
