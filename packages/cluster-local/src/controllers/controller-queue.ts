import type { Logger } from '@paddock/common';
import { WorkQueue, type KeyHandler } from '@paddock/kube/work-queue';

/**
 * A controller's work queue, started: keys are processed after the request that queued them has
 * been answered, one at a time, and a failed key is logged and retried with backoff, as
 * kube-controller-manager's controllers do.
 */
export function controllerQueue(handle: KeyHandler, logger: Logger): WorkQueue {
  const queue = new WorkQueue(handle, {
    onProcessed: (key, outcome, _seconds, err) => {
      if (outcome === 'error') logger.error({ err, key }, 'controller work failed');
    },
  });
  queue.start();
  return queue;
}
