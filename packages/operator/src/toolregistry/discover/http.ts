import type { ToolHandler } from '@paddock/kube';
import { handlerTimeoutMs } from '../timeouts.js';
import type { ToolReport } from './context.js';

/**
 * Probes an http handler's endpoint with the handler's method and headers, and reports its declared
 * tool. Any HTTP answer, even an error status, shows that the endpoint is served; a refused
 * connection or no answer in time rejects.
 */
export async function discoverHttp(handler: ToolHandler, url: string): Promise<ToolReport[]> {
  const config = handler.httpConfig;
  const response = await fetch(url, {
    method: config?.method ?? 'POST',
    headers: { 'content-type': config?.contentType ?? 'application/json', ...config?.headers },
    signal: AbortSignal.timeout(handlerTimeoutMs(handler)),
    redirect: 'manual',
  });
  // Only the answer's arrival matters; drop the body so the connection is released.
  await response.body?.cancel();
  return [
    {
      handlerName: handler.name,
      name: handler.tool?.name ?? handler.name,
      status: 'Available',
      endpoint: url,
    },
  ];
}
