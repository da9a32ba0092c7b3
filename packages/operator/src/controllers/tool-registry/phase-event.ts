import type { EventType } from '../../runtime/events.js';
import type { RegistryStatus } from '../../toolregistry/index.js';

/** Kubernetes clients cut Event messages to this length; longer ones are refused by some servers. */
const MAX_MESSAGE = 1024;

export interface PhaseEvent {
  type: EventType;
  reason: string;
  message: string;
}

/**
 * The Event a pass records: one when the phase differs from the one before the pass (the transient
 * Pending written during discovery does not count), a Warning when tools are missing.
 */
export function phaseEvent(
  before: string | undefined,
  status: RegistryStatus,
): PhaseEvent | undefined {
  if (status.phase === before || status.phase === 'Pending') return undefined;
  const counts = `${status.availableToolsCount} of ${status.discoveredToolsCount} tools available`;
  const notReady = status.conditions.find(
    (c) => c.type === 'AllHandlersReady' && c.status === 'False',
  );
  return {
    type: status.phase === 'Degraded' || status.phase === 'Failed' ? 'Warning' : 'Normal',
    reason: `Registry${status.phase}`,
    message: (notReady === undefined ? counts : `${counts}; ${notReady.message}`).slice(
      0,
      MAX_MESSAGE,
    ),
  };
}
