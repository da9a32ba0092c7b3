import { status as grpcStatus, type ServiceError } from '@grpc/grpc-js';
import { channelCredentials, unary } from '../grpc-client.js';
import { cutText } from '../response-limit.js';
import type { CallResult, GrpcTarget } from '../target.js';
import { toolProtocol } from '../tool-protocol.js';

/** The largest message a call receives (gRPC's own default); its text is cut further. */
export const MAX_GRPC_MESSAGE_BYTES = 4 * 1024 * 1024;

interface ExecuteResponse {
  result_json: string;
  error: string;
}

/** Calls a grpc tool with Execute: the arguments as JSON text, the result's JSON as the answer. */
export async function callGrpc(
  target: GrpcTarget,
  args: unknown,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<CallResult> {
  const protocol = await toolProtocol();
  const client = new protocol.ToolService(target.address, channelCredentials(target.tls), {
    'grpc.max_receive_message_length': MAX_GRPC_MESSAGE_BYTES,
  });
  try {
    const answer = await unary<ExecuteResponse>(
      client,
      'Execute',
      { tool_name: target.tool, arguments_json: JSON.stringify(args ?? {}) },
      Date.now() + timeoutMs,
      signal,
    );
    if (answer.error !== '') return { text: cutText(answer.error), isError: true };
    return { text: cutText(answer.result_json), isError: false };
  } catch (error) {
    if (signal?.aborted === true) throw signal.reason;
    const failure = error as Partial<ServiceError>;
    if (failure.code === grpcStatus.DEADLINE_EXCEEDED) {
      return { text: `no answer in ${timeoutMs} ms`, isError: true };
    }
    return { text: `${target.tool} failed: ${failure.message ?? String(error)}`, isError: true };
  } finally {
    client.close();
  }
}
