import { setTimeout as sleep } from 'node:timers/promises';
import { KINDS } from '../resources/index.js';
import type { Kube } from './cluster.js';
import { AlreadyExistsError, NotFoundError } from './errors.js';
import { CORE_KINDS } from './kinds.js';
import type { KubeObject } from './resource-client.js';

/** How long the API server may take to serve a kind after its CRD was created. */
const SERVED_TIMEOUT_MS = 30_000;
const SERVED_POLL_MS = 50;

/**
 * Creates each of Paddock's CRDs that the cluster does not have yet (an existing one is left as
 * it is), then waits until every kind is served. Returns how many were created. The CRDs go as
 * raw JSON: client-node's typed CRD model would drop their defaults and validation rules.
 */
export async function installCrds(kube: Kube): Promise<number> {
  const crds = kube.resource<KubeObject>(CORE_KINDS.customResourceDefinition);
  let created = 0;
  for (const kind of KINDS) {
    try {
      await crds.create(kind.crd);
      created++;
    } catch (err) {
      if (!(err instanceof AlreadyExistsError)) throw err;
    }
  }
  const deadline = Date.now() + SERVED_TIMEOUT_MS;
  for (const kind of KINDS) {
    for (;;) {
      try {
        await kube.resource(kind).list({ limit: 1 });
        break;
      } catch (err) {
        if (!(err instanceof NotFoundError) || Date.now() > deadline) throw err;
        await sleep(SERVED_POLL_MS);
      }
    }
  }
  return created;
}
