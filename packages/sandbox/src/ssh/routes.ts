import { httpErrors, type HttpError } from '@paddock/common';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { auditLine } from '../api/audit.js';
import type { ApiContext } from '../api/context.js';
import { ROUTES } from '../api/routes.js';
import { SshKeyError, type SshKeyRegistry } from './keys.js';

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
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  routes.post(
    ROUTES.registerSshKey.path,
    { schema: ROUTES.registerSshKey.schema },
    (req, reply) => {
      const { body } = req;
      const sub = req.identity.sub;
      let outcome;
      try {
        outcome = keys.register(sub, body.publicKey, body.name);
      } catch (err) {
        if (err instanceof SshKeyError) throw keyErrorToHttp(err);
        throw err;
      }
      if (outcome.created)
        ctx.audit(auditLine.sshAuthorizedKey({ sub, type: outcome.record.type }));
      void reply.code(outcome.created ? 201 : 200).send(outcome.record);
    },
  );

  routes.get(ROUTES.listSshKeys.path, { schema: ROUTES.listSshKeys.schema }, (req) => ({
    keys: keys.list(req.identity.sub),
  }));

  routes.delete(ROUTES.deleteSshKey.path, { schema: ROUTES.deleteSshKey.schema }, (req, reply) => {
    if (!keys.remove(req.identity.sub, req.params.id)) {
      throw httpErrors.notFound(
        `you have no SSH key with id ${JSON.stringify(req.params.id.slice(0, 64))}`,
      );
    }
    void reply.code(204).send();
  });

  routes.get(ROUTES.sshPort.path, { schema: ROUTES.sshPort.schema }, () => {
    const listener = sshListener();
    if (listener === undefined) throw httpErrors.unavailable('the SSH server is not listening');
    return { port: listener.port, host: '127.0.0.1' as const, hostKeys: listener.hostKeys };
  });
}
