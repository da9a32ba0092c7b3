import { silentLogger, type Logger } from '@paddock/common';
import { EventRecorder, type Kube } from '@paddock/kube';

export type { EventRecorder, EventType } from '@paddock/kube';

export const EVENT_COMPONENT = 'paddock-operator';

/** The operator's events: reported as paddock-operator, a failure to record one logged. */
export function operatorEventRecorder(kube: Kube, logger: Logger = silentLogger()): EventRecorder {
  return new EventRecorder({
    kube,
    component: EVENT_COMPONENT,
    onError: (err, event) => logger.warn({ err, ...event }, 'could not record an event'),
  });
}
