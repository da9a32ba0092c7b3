import { UsageError } from '@paddock/common';
import { AGENT_PROVIDER_TYPES, type AgentRuntime } from '@paddock/kube';

/**
 * The model the local platform's sample agent talks to, when the person starting it gave one: the
 * PADDOCK_MODEL_* variables of `npm start`. Without them the sample agent has no provider, and runs
 * no agent loop: the product never plays a fake model. Pure.
 */

export interface SampleModel {
  provider: NonNullable<AgentRuntime['spec']['provider']>;
  /** The model's name; the sample agent's own when not given. */
  model?: string;
  /** Kept in the Secret SAMPLE_MODEL_SECRET, which the provider names. */
  apiKey?: string;
}

/** The sample AgentRuntime (examples/resources/agent-runtime.yaml). */
export const SAMPLE_AGENT_RUNTIME = { namespace: 'paddock-sample', name: 'sample-agent' } as const;
/** The Secret of the sample agent's model key, in the sample namespace. */
export const SAMPLE_MODEL_SECRET = 'sample-model';

const given = (value: string | undefined) =>
  value === undefined || value.trim() === '' ? undefined : value.trim();

/** The sample agent's model from the environment, undefined when none is configured. */
export function sampleModelFrom(env: NodeJS.ProcessEnv): SampleModel | undefined {
  const baseURL = given(env['PADDOCK_MODEL_BASE_URL']);
  const apiKey = given(env['PADDOCK_MODEL_API_KEY']);
  const model = given(env['PADDOCK_MODEL']);
  const type = given(env['PADDOCK_MODEL_PROVIDER']) ?? 'openai';
  if (baseURL === undefined && apiKey === undefined) {
    if (model !== undefined || env['PADDOCK_MODEL_PROVIDER'] !== undefined) {
      throw new UsageError(
        'PADDOCK_MODEL and PADDOCK_MODEL_PROVIDER need PADDOCK_MODEL_BASE_URL or PADDOCK_MODEL_API_KEY (see docs/agent.md)',
      );
    }
    return undefined;
  }
  if (!(AGENT_PROVIDER_TYPES as readonly string[]).includes(type)) {
    throw new UsageError(
      `PADDOCK_MODEL_PROVIDER "${type}" is not one of ${AGENT_PROVIDER_TYPES.join(', ')}`,
    );
  }
  if (baseURL !== undefined && !/^https?:\/\/[^\s/]+/.test(baseURL)) {
    throw new UsageError(`PADDOCK_MODEL_BASE_URL "${baseURL}" is not an http or https URL`);
  }
  return {
    provider: {
      type: type as SampleModel['provider']['type'],
      ...(baseURL === undefined ? {} : { baseURL }),
      ...(apiKey === undefined ? {} : { apiKeySecretRef: { name: SAMPLE_MODEL_SECRET } }),
    },
    ...(model === undefined ? {} : { model }),
    ...(apiKey === undefined ? {} : { apiKey }),
  };
}

/** The banner's line about the sample agent's model. */
export function sampleModelLine(sample: SampleModel | undefined): string {
  if (sample === undefined) {
    return "sample agent's model:     none: set PADDOCK_MODEL_BASE_URL (and PADDOCK_MODEL) to give it one (docs/agent.md)";
  }
  const where = sample.provider.baseURL ?? `${sample.provider.type}'s API`;
  return `sample agent's model:     ${sample.model ?? 'as its AgentRuntime names'} at ${where}`;
}
