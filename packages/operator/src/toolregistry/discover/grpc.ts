import { readFile } from 'node:fs/promises';
import {
  credentials,
  status as grpcStatus,
  type ChannelCredentials,
  type Client,
  type ServiceError,
} from '@grpc/grpc-js';
import type { ToolHandler } from '@paddock/kube';
import { handlerTimeoutMs } from '../timeouts.js';
import { toolProtocol, type ProtoTool } from '../tool-protocol.js';
import type { ToolReport } from './context.js';

/**
 * Connects to a grpc handler speaking the platform's tool protocol, checks its health, and reports
 * the declared tool, or every tool ListTools returns when none is declared.
 */
export async function discoverGrpc(handler: ToolHandler, url: string): Promise<ToolReport[]> {
  const target = grpcTarget(url);
  const protocol = await toolProtocol();
  const channelCredentials = await credentialsFor(handler.grpcConfig);
  const deadline = () => Date.now() + handlerTimeoutMs(handler);
  const health = new protocol.Health(target, channelCredentials);
  const tools = new protocol.ToolService(target, channelCredentials);
  try {
    await checkHealth(health, deadline());
    const names =
      handler.tool !== undefined
        ? [handler.tool.name]
        : (await unary<{ tools: ProtoTool[] }>(tools, 'ListTools', {}, deadline())).tools.map(
            (tool) => tool.name,
          );
    return names.map((name) => ({
      handlerName: handler.name,
      name,
      status: 'Available' as const,
      endpoint: target,
    }));
  } finally {
    health.close();
    tools.close();
  }
}

/** grpc endpoints are host:port; a URL's scheme and path are tolerated and dropped. */
export function grpcTarget(url: string): string {
  const match = /^(?:https?|grpcs?):\/\/([^/]+)/.exec(url);
  return match?.[1] ?? url;
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

function unary<T>(client: Client, method: string, request: object, deadline: number): Promise<T> {
  const call = (client as unknown as Record<string, (...args: unknown[]) => void>)[method];
  if (call === undefined) return Promise.reject(new Error(`no method ${method}`));
  return new Promise<T>((resolve, reject) => {
    call.call(client, request, { deadline }, (error: ServiceError | null, answer: T) => {
      if (error) reject(error);
      else resolve(answer);
    });
  });
}

async function credentialsFor(config: ToolHandler['grpcConfig']): Promise<ChannelCredentials> {
  if (config?.tls !== true) return credentials.createInsecure();
  const read = (path: string | undefined) =>
    path === undefined || path === '' ? Promise.resolve(null) : readFile(path);
  const [ca, key, cert] = await Promise.all([
    read(config.tlsCAPath),
    read(config.tlsKeyPath),
    read(config.tlsCertPath),
  ]);
  if ((key === null) !== (cert === null)) {
    throw new Error('grpcConfig needs both tlsCertPath and tlsKeyPath for a client certificate');
  }
  const verify = config.tlsInsecureSkipVerify
    ? { rejectUnauthorized: false, checkServerIdentity: () => undefined }
    : {};
  return credentials.createSsl(ca, key, cert, verify);
}
