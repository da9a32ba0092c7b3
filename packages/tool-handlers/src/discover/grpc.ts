import { status as grpcStatus, type Client, type ServiceError } from '@grpc/grpc-js';
import type { ToolHandler } from '@paddock/kube';
import { channelCredentials, grpcTarget, readTls, unary } from '../grpc-client.js';
import { schemaFromJson } from '../json-schema.js';
import { handlerTimeoutMs } from '../timeouts.js';
import { toolProtocol, type ProtoTool } from '../tool-protocol.js';
import { available, type Found } from './context.js';

/**
 * Connects to a grpc handler speaking the platform's tool protocol, checks its health, and reports
 * the declared tool, or every tool ListTools returns when none is declared.
 */
export async function discoverGrpc(handler: ToolHandler, url: string): Promise<Found> {
  const address = grpcTarget(url);
  const protocol = await toolProtocol();
  const tls = await readTls(handler.grpcConfig);
  const timeoutMs = handlerTimeoutMs(handler);
  const deadline = () => Date.now() + timeoutMs;
  const health = new protocol.Health(address, channelCredentials(tls));
  const service = new protocol.ToolService(address, channelCredentials(tls));
  try {
    await checkHealth(health, deadline());
    const declared = handler.tool;
    const tools: { name: string; description: string; inputSchema: Record<string, unknown> }[] =
      declared !== undefined
        ? [
            {
              name: declared.name,
              description: declared.description,
              inputSchema: declared.inputSchema,
            },
          ]
        : (await unary<{ tools: ProtoTool[] }>(service, 'ListTools', {}, deadline())).tools.map(
            (tool) => ({
              name: tool.name,
              description: tool.description,
              inputSchema: schemaFromJson(tool.input_schema_json),
            }),
          );
    return tools.map((tool) =>
      available(address, {
        handlerName: handler.name,
        ...tool,
        target: {
          type: 'grpc',
          address,
          tool: tool.name,
          ...(tls === undefined ? {} : { tls }),
          timeoutMs,
        },
      }),
    );
  } finally {
    health.close();
    service.close();
  }
}

async function checkHealth(health: Client, deadline: number): Promise<void> {
  try {
    const answer = await unary<{ status: string }>(health, 'Check', { service: '' }, deadline);
    if (answer.status !== 'SERVING') throw new Error(`health check answered ${answer.status}`);
  } catch (error) {
    // A server without the health service is judged by ListTools or the connection alone.
    if ((error as Partial<ServiceError>).code === grpcStatus.UNIMPLEMENTED) return;
    throw error;
  }
}
