import { readFile } from 'node:fs/promises';
import {
  credentials,
  type ChannelCredentials,
  type Client,
  type ServiceError,
} from '@grpc/grpc-js';
import type { ToolHandler } from '@paddock/kube';
import type { GrpcTls } from './target.js';

/** grpc endpoints are host:port; a URL's scheme and path are tolerated and dropped. */
export function grpcTarget(url: string): string {
  const match = /^(?:https?|grpcs?):\/\/([^/]+)/.exec(url);
  return match?.[1] ?? url;
}

/** The handler's TLS files, read; undefined for a plaintext connection. */
export async function readTls(config: ToolHandler['grpcConfig']): Promise<GrpcTls | undefined> {
  if (config?.tls !== true) return undefined;
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
  return { ca, key, cert, insecureSkipVerify: config.tlsInsecureSkipVerify === true };
}

export function channelCredentials(tls: GrpcTls | undefined): ChannelCredentials {
  if (tls === undefined) return credentials.createInsecure();
  const verify = tls.insecureSkipVerify
    ? { rejectUnauthorized: false, checkServerIdentity: () => undefined }
    : {};
  return credentials.createSsl(tls.ca, tls.key, tls.cert, verify);
}

/** One unary call of a generic client's method, until the deadline or the signal. */
export function unary<T>(
  client: Client,
  method: string,
  request: object,
  deadline: number,
  signal?: AbortSignal,
): Promise<T> {
  const call = (client as unknown as Record<string, (...args: unknown[]) => { cancel(): void }>)[
    method
  ];
  if (call === undefined) return Promise.reject(new Error(`no method ${method}`));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      running.cancel();
      reject(signal?.reason as Error);
    };
    const running = call.call(
      client,
      request,
      { deadline },
      (error: ServiceError | null, answer: T) => {
        signal?.removeEventListener('abort', onAbort);
        if (error) reject(error);
        else resolve(answer);
      },
    );
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}
