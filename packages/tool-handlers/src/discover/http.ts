import type { ToolHandler } from '@paddock/kube';
import { handlerTimeoutMs } from '../timeouts.js';
import { available, type Found } from './context.js';

export const DEFAULT_HTTP_METHOD = 'POST';
export const DEFAULT_CONTENT_TYPE = 'application/json';

/**
 * Probes an http handler's endpoint with the handler's method and headers, and reports its declared
 * tool. Any HTTP answer, even an error status, shows that the endpoint is served; a refused
 * connection or no answer in time rejects.
 */
export async function discoverHttp(handler: ToolHandler, url: string): Promise<Found> {
  const config = handler.httpConfig;
  const method = config?.method ?? DEFAULT_HTTP_METHOD;
  const contentType = config?.contentType ?? DEFAULT_CONTENT_TYPE;
  const timeoutMs = handlerTimeoutMs(handler);
  const response = await fetch(url, {
    method,
    headers: { 'content-type': contentType, ...config?.headers },
    signal: AbortSignal.timeout(timeoutMs),
    redirect: 'manual',
  });
  // Only the answer's arrival matters; drop the body so the connection is released.
  await response.body?.cancel();
  const tool = handler.tool;
  return [
    available(url, {
      handlerName: handler.name,
      name: tool?.name ?? handler.name,
      description: tool?.description ?? '',
      inputSchema: tool?.inputSchema ?? { type: 'object' },
      target: {
        type: 'http',
        url,
        method,
        headers: { ...config?.headers },
        contentType,
        timeoutMs,
      },
    }),
  ];
}
