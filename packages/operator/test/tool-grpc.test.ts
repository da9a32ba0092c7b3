import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Server, ServerCredentials, credentials, type ServiceError } from '@grpc/grpc-js';
import type { ToolHandler } from '@paddock/kube';
import { freePort, tempDir } from '@paddock/testing';
import { discoverHandler, toolProtocol, type ProtoTool } from '../src/toolregistry/index.js';

const TOOLS: ProtoTool[] = [
  {
    name: 'translate',
    description: 'Translates text',
    input_schema_json: '{"type":"object"}',
    output_schema_json: '',
  },
  {
    name: 'summarize',
    description: 'Summarizes text',
    input_schema_json: '{"type":"object"}',
    output_schema_json: '{"type":"string"}',
  },
];

type Callback = (error: ServiceError | null, answer?: object) => void;

/** A server of the platform's tool protocol and the health service, on a free port. */
async function startToolServer(
  serverCredentials: ServerCredentials,
  health: 'SERVING' | 'NOT_SERVING',
): Promise<{ server: Server; target: string }> {
  const protocol = await toolProtocol();
  const server = new Server();
  server.addService(protocol.ToolService.service, {
    ListTools: (_call: unknown, callback: Callback) => callback(null, { tools: TOOLS }),
    Execute: (
      call: { request: { tool_name: string; arguments_json: string } },
      callback: Callback,
    ) => {
      const args = JSON.parse(call.request.arguments_json) as { text: string };
      callback(null, {
        result_json: JSON.stringify(`${call.request.tool_name}: ${args.text}`),
        error: '',
      });
    },
  });
  server.addService(protocol.Health.service, {
    Check: (_call: unknown, callback: Callback) => callback(null, { status: health }),
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', serverCredentials, (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return { server, target: `127.0.0.1:${port}` };
}

let folder: Awaited<ReturnType<typeof tempDir>>;
let plain: Awaited<ReturnType<typeof startToolServer>>;
let secure: Awaited<ReturnType<typeof startToolServer>>;
let sick: Awaited<ReturnType<typeof startToolServer>>;
let downTarget: string;
let caPath: string;

before(async () => {
  folder = await tempDir('paddock-grpc-');
  caPath = join(folder.path, 'cert.pem');
  const keyPath = join(folder.path, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-keyout',
      keyPath,
      '-out',
      caPath,
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  const [cert, key] = await Promise.all([readFile(caPath), readFile(keyPath)]);
  plain = await startToolServer(ServerCredentials.createInsecure(), 'SERVING');
  secure = await startToolServer(
    ServerCredentials.createSsl(null, [{ cert_chain: cert, private_key: key }]),
    'SERVING',
  );
  sick = await startToolServer(ServerCredentials.createInsecure(), 'NOT_SERVING');
  downTarget = `127.0.0.1:${await freePort()}`;
});

after(async () => {
  for (const running of [plain, secure, sick]) running?.server.forceShutdown();
  await folder.remove();
});

const grpcHandler = (
  name: string,
  target: string,
  extra: Partial<ToolHandler> = {},
): ToolHandler => ({
  name,
  type: 'grpc',
  endpoint: { url: target },
  timeout: '2s',
  ...extra,
});

const context = { namespace: 'team' };

describe('grpc tool discovery', () => {
  it('lists the tools of a healthy server when no tool is declared', async () => {
    const found = await discoverHandler(grpcHandler('lang', plain.target), context);
    assert.deepEqual(found.tools, [
      { handlerName: 'lang', name: 'translate', status: 'Available', endpoint: plain.target },
      { handlerName: 'lang', name: 'summarize', status: 'Available', endpoint: plain.target },
    ]);
  });

  it('reports the declared tool of a healthy server, given as a URL', async () => {
    const handler = grpcHandler('lang', `http://${plain.target}`, {
      tool: { name: 'translate', description: 'Translates', inputSchema: { type: 'object' } },
    });
    const found = await discoverHandler(handler, context);
    assert.deepEqual(found.tools, [
      { handlerName: 'lang', name: 'translate', status: 'Available', endpoint: plain.target },
    ]);
  });

  it('serves Execute from the same protocol definition', async () => {
    const protocol = await toolProtocol();
    const client = new protocol.ToolService(plain.target, credentials.createInsecure());
    const answer = await new Promise<{ result_json: string }>((resolve, reject) => {
      const execute = (client as unknown as Record<string, (...args: unknown[]) => void>).Execute;
      execute?.call(
        client,
        { tool_name: 'translate', arguments_json: '{"text":"hallo"}' },
        (error: Error | null, result: { result_json: string }) =>
          error ? reject(error) : resolve(result),
      );
    });
    client.close();
    assert.equal(JSON.parse(answer.result_json), 'translate: hallo');
  });

  it('reports a server whose health check is NOT_SERVING as Unavailable', async () => {
    const found = await discoverHandler(grpcHandler('sick', sick.target), context);
    assert.equal(found.tools[0]?.status, 'Unavailable');
    assert.match(found.tools[0]?.error ?? '', /NOT_SERVING/);
  });

  it('reports a server that is down as Unavailable', async () => {
    const found = await discoverHandler(grpcHandler('down', downTarget, { retries: 1 }), context);
    assert.equal(found.tools[0]?.name, 'down');
    assert.equal(found.tools[0]?.status, 'Unavailable');
    assert.match(found.tools[0]?.error ?? '', /UNAVAILABLE|ECONNREFUSED/);
  });

  it('connects over TLS trusting the CA given in grpcConfig', async () => {
    const found = await discoverHandler(
      grpcHandler('tls', secure.target, { grpcConfig: { tls: true, tlsCAPath: caPath } }),
      context,
    );
    assert.deepEqual(
      found.tools.map((t) => [t.name, t.status]),
      [
        ['translate', 'Available'],
        ['summarize', 'Available'],
      ],
    );
  });

  it('refuses an untrusted TLS certificate unless told to skip verification', async () => {
    const untrusted = await discoverHandler(
      grpcHandler('tls', secure.target, { grpcConfig: { tls: true } }),
      context,
    );
    assert.equal(untrusted.tools[0]?.status, 'Unavailable');
    const skipped = await discoverHandler(
      grpcHandler('tls', secure.target, { grpcConfig: { tls: true, tlsInsecureSkipVerify: true } }),
      context,
    );
    assert.equal(skipped.tools[0]?.status, 'Available');
  });

  it('fails a TLS handler whose CA file does not exist, naming it', async () => {
    const found = await discoverHandler(
      grpcHandler('tls', secure.target, {
        grpcConfig: { tls: true, tlsCAPath: join(folder.path, 'missing.pem') },
      }),
      context,
    );
    assert.equal(found.tools[0]?.status, 'Unavailable');
    assert.match(found.tools[0]?.error ?? '', /missing\.pem/);
  });
});
