import type { AgentRuntime } from '@paddock/kube';

/**
 * Where earlier operator versions remembered an agent's replica count while a budget paused it by
 * rewriting spec.replicas to 0. The pause is now computed, and spec.replicas is never rewritten.
 */
export const ANNOTATION_PAUSED_REPLICAS = 'paddock.dev/paused-replicas';

/**
 * The agent as it must be once the old pause is undone, or undefined when it carries none: the
 * annotation removed and, while spec.replicas is still the 0 the old pause wrote, the remembered
 * count restored. A count set while paused (not 0) is kept; an unreadable memory restores nothing.
 * The effective count still honours a current pause, now computed from the Workspace.
 */
export function withoutOldPause(agent: AgentRuntime): AgentRuntime | undefined {
  const annotations = agent.metadata.annotations ?? {};
  const remembered = annotations[ANNOTATION_PAUSED_REPLICAS];
  if (remembered === undefined) return undefined;
  const rest = Object.fromEntries(
    Object.entries(annotations).filter(([key]) => key !== ANNOTATION_PAUSED_REPLICAS),
  );
  const parsed = /^\d+$/.test(remembered) ? Number(remembered) : undefined;
  const restore = agent.spec.replicas === 0 && parsed !== undefined;
  return {
    ...agent,
    metadata: { ...agent.metadata, annotations: rest },
    spec: restore ? { ...agent.spec, replicas: parsed } : agent.spec,
  };
}
