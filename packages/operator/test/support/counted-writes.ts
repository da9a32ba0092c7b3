import type { Kube } from '@paddock/kube';

/**
 * The client, with every request other than a GET noted in `writes` as `<METHOD> <path>`: what a
 * controller writes, so that a pass over unchanged objects can be shown to write nothing.
 */
export function countingWrites(client: Kube, writes: string[]): Kube {
  const request = client.rest.request.bind(client.rest);
  client.rest.request = ((method: string, path: string, ...rest: unknown[]) => {
    if (method !== 'GET') writes.push(`${method} ${path}`);
    return (request as (...args: unknown[]) => unknown)(method, path, ...rest);
  }) as typeof client.rest.request;
  return client;
}
