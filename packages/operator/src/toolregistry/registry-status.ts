import type { Condition, ToolRegistryStatus } from '@paddock/kube';
import type { HandlerDiscovery, ToolReport } from '@paddock/tool-handlers';

export type RegistryPhase = NonNullable<ToolRegistryStatus['phase']>;

/** A ToolRegistry's status as discovery makes it; tools carry why they are not available. */
export type RegistryStatus = Omit<ToolRegistryStatus, 'discoveredTools' | 'phase'> & {
  phase: RegistryPhase;
  discoveredTools: ToolReport[];
  discoveredToolsCount: number;
  availableToolsCount: number;
  conditions: Condition[];
};

export interface RegistryStatusInput {
  /** One entry per handler, in spec order; empty while nothing has been discovered yet. */
  results: readonly HandlerDiscovery[];
  /** The metadata.generation the results were discovered for. */
  generation?: number | undefined;
  /** The conditions in status now, so an unchanged condition keeps its lastTransitionTime. */
  previousConditions?: readonly Condition[] | undefined;
  now: Date;
}

/**
 * The status for a set of handler results. A handler is ready when all its tools are Available and
 * available when at least one is (or when it offers none, having failed at nothing). The phase is
 * Ready when all handlers are ready, Failed when none is available, Degraded in between, and
 * Pending before any result. A tool name already offered by an earlier handler is marked
 * Unavailable on the later one, since an agent could not tell the two apart.
 */
export function registryStatus(input: RegistryStatusInput): RegistryStatus {
  const { results, duplicates } = markDuplicates(input.results);
  const tools = results.flatMap((result) => result.tools);
  const available = tools.filter((tool) => tool.status === 'Available');
  const ready = results.filter((result) => result.tools.every(isAvailable));
  const up = results.filter(
    (result) => result.tools.length === 0 || result.tools.some(isAvailable),
  );
  const failing = results.filter((result) => !result.tools.every(isAvailable));

  const phase: RegistryPhase =
    results.length === 0
      ? 'Pending'
      : ready.length === results.length
        ? 'Ready'
        : up.length === 0
          ? 'Failed'
          : 'Degraded';

  const total = results.length;
  const problems = failing.map((result) => `${result.handlerName}: ${handlerProblem(result)}`);
  const wanted: Omit<Condition, 'lastTransitionTime' | 'observedGeneration'>[] =
    total === 0
      ? [
          {
            type: 'HandlersAvailable',
            status: 'Unknown',
            reason: 'Discovering',
            message: 'discovery has not finished',
          },
          {
            type: 'AllHandlersReady',
            status: 'Unknown',
            reason: 'Discovering',
            message: 'discovery has not finished',
          },
        ]
      : [
          up.length > 0
            ? {
                type: 'HandlersAvailable',
                status: 'True',
                reason: 'HandlersAvailable',
                message: `${up.length} of ${total} handlers available`,
              }
            : {
                type: 'HandlersAvailable',
                status: 'False',
                reason: 'NoHandlersAvailable',
                message: problems.join('; '),
              },
          failing.length === 0
            ? {
                type: 'AllHandlersReady',
                status: 'True',
                reason: 'AllHandlersReady',
                message: `all ${total} handlers ready`,
              }
            : {
                type: 'AllHandlersReady',
                status: 'False',
                reason: 'HandlersNotReady',
                message: `${total - failing.length} of ${total} handlers ready; ${problems.join('; ')}`,
              },
        ];
  if (duplicates.length > 0) {
    wanted.push({
      type: 'ToolNamesUnique',
      status: 'False',
      reason: 'DuplicateToolNames',
      message: duplicates.join('; '),
    });
  }

  return {
    phase,
    ...(input.generation === undefined ? {} : { observedGeneration: input.generation }),
    discoveredTools: tools,
    discoveredToolsCount: tools.length,
    availableToolsCount: available.length,
    conditions: wanted.map((condition) => stamp(condition, input)),
  };
}

function isAvailable(tool: ToolReport): boolean {
  return tool.status === 'Available';
}

function handlerProblem(result: HandlerDiscovery): string {
  const errors = [
    ...new Set(result.tools.filter((t) => !isAvailable(t)).map((t) => t.error ?? t.status)),
  ];
  return errors.join(', ');
}

function markDuplicates(input: readonly HandlerDiscovery[]): {
  results: HandlerDiscovery[];
  duplicates: string[];
} {
  const owner = new Map<string, string>();
  const duplicates: string[] = [];
  const results = input.map((result) => ({
    handlerName: result.handlerName,
    tools: result.tools.map((tool): ToolReport => {
      const first = owner.get(tool.name);
      if (first === undefined) {
        owner.set(tool.name, result.handlerName);
        return tool;
      }
      if (first === result.handlerName) return tool;
      const message = `tool ${tool.name} of handler ${result.handlerName} is already offered by handler ${first}`;
      duplicates.push(message);
      return { ...tool, status: 'Unavailable', error: `duplicate tool name: ${message}` };
    }),
  }));
  return { results, duplicates };
}

function stamp(
  condition: Omit<Condition, 'lastTransitionTime' | 'observedGeneration'>,
  input: RegistryStatusInput,
): Condition {
  const previous = input.previousConditions?.find((c) => c.type === condition.type);
  const lastTransitionTime =
    previous?.status === condition.status && previous.lastTransitionTime !== undefined
      ? previous.lastTransitionTime
      : input.now.toISOString();
  return {
    ...condition,
    lastTransitionTime,
    ...(input.generation === undefined ? {} : { observedGeneration: input.generation }),
  };
}
