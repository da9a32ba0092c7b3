import { loadOnce } from '@paddock/common';
import type { ModelClient, ModelEvent, ModelRequest } from '../model.js';

/**
 * A model client whose provider (and its SDK: 5-11 MiB of resident memory) loads with the first
 * model call rather than at start: an idle agent, as most are, never calls its model. Concurrent
 * first calls share one load; a load that failed is tried again by the next call.
 */
export function lazyModelClient(load: () => Promise<ModelClient>): ModelClient {
  const client = loadOnce(load);
  return {
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
      yield* (await client()).stream(request, signal);
    },
  };
}
