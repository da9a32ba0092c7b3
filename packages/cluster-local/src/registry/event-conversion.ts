import type { KubeObject } from '../contracts.js';
import type { Conversion } from './resource-type.js';

/** events.k8s.io/v1 field name to the core/v1 Event field it is stored as. */
const RENAMES: Array<[string, string]> = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
  ['reportingController', 'reportingComponent'],
];

function rename(
  object: KubeObject,
  pairs: Array<[string, string]>,
  apiVersion: string,
): KubeObject {
  const out: KubeObject = { ...object, apiVersion };
  for (const [from, to] of pairs) {
    if (Object.hasOwn(out, from)) {
      out[to] = out[from];
      delete out[from];
    }
  }
  return out;
}

/**
 * Both Event APIs share one storage, as in Kubernetes: events.k8s.io/v1 Events are core/v1 Events
 * with renamed fields.
 */
export const eventsV1Conversion: Conversion = {
  toStored: (object) => rename(object, RENAMES, 'v1'),
  fromStored: (object) =>
    rename(
      object,
      RENAMES.map(([a, b]) => [b, a]),
      'events.k8s.io/v1',
    ),
};
