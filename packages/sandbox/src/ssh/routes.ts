import { httpErrors, type HttpError } from '@paddock/common';
import type { FastifyInstance } from 'fastify';
import { auditLine } from '../api/audit.js';
import type { ApiContext } from '../api/context.js';
import { SshKeyError, type SshKeyRegistry } from './keys.js';

/** The body of `POST /api/ssh-authorized-keys`. */
export interface NewSshKeyBody {
  publicKey: string;
  name?: string;
}

/** Checks the JSON body's shape; the key line itself is checked by the registry. */
export function parseNewKeyBody(body: unknown): NewSshKeyBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw httpErrors.invalidRequest(
      'the body must be a JSON object like {"publicKey": "ssh-ed25519 AAAA… me@laptop"}',
    );
  }
  const { publicKey, name } = body as Record<string, unknown>;
  if (typeof publicKey !== 'string') {
    throw httpErrors.invalidRequest(
      'publicKey is required: one OpenSSH public key line (the contents of a .pub file)',
    );
  }
  if (name !== undefined && typeof name !== 'string') {
    throw httpErrors.invalidRequest('name must be a string');
  }
  return name === undefined ? { publicKey } : { publicKey, name };
}

/** The status and envelope of a refused registration. */
export function keyErrorToHttp(err: SshKeyError): HttpError {
  switch (err.kind) {
    case 'invalid':
      return httpErrors.invalidRequest(err.message);
    case 'conflict':
    case 'limit':
      return httpErrors.conflict(err.message);
    case 'full':
      return httpErrors.unavailable(err.message);
  }
}

/**
 * The SSH routes of the human-facing listener. Every key belongs to the caller's X-Forwarded-Sub;
 * no route ever shows or touches another subject's keys (another's id answers 404 like an unknown one).
 */
export function registerSshRoutes(
  app: FastifyInstance,
  ctx: ApiContext,
  keys: SshKeyRegistry,
  sshListener: () => { port: number; hostKeys: string[] } | undefined,
): void {
  app.post('/api/ssh-authorized-keys', (req, reply) => {
    const body = parseNewKeyBody(req.body);
    const sub = req.identity.sub;
    let outcome;
    try {
      outcome = keys.register(sub, body.publicKey, body.name);
    } catch (err) {
      if (err instanceof SshKeyError) throw keyErrorToHttp(err);
      throw err;
    }
    if (outcome.created) ctx.audit(auditLine.sshAuthorizedKey({ sub, type: outcome.record.type }));
    return reply.code(outcome.created ? 201 : 200).send(outcome.record);
  });

  app.get('/api/ssh-authorized-keys', (req, reply) =>
    reply.send({ keys: keys.list(req.identity.sub) }),
  );

  app.delete<{ Params: { id: string } }>('/api/ssh-authorized-keys/:id', (req, reply) => {
    if (!keys.remove(req.identity.sub, req.params.id)) {
      throw httpErrors.notFound(
        `you have no SSH key with id ${JSON.stringify(req.params.id.slice(0, 64))}`,
      );
    }
    return reply.code(204).send();
  });

  app.get('/api/ssh-port', (_req, reply) => {
    const listener = sshListener();
    if (listener === undefined) throw httpErrors.unavailable('the SSH server is not listening');
    return reply.send({ port: listener.port, host: '127.0.0.1', hostKeys: listener.hostKeys });
  });
}
