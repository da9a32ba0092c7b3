import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_KEY_NAME_CHARS, type NewKeyRequest } from '../auth/apikeys/service.js';
import { ANONYMOUS_ID } from '../auth/identity.js';
import { can } from '../auth/permissions.js';
import { bodyOf } from './auth-routes.js';
import type { DashboardContext } from './context.js';
import { apiError } from './errors.js';
import { pageOf } from './paging.js';

/** Longest expiry a key may be given, in days (ten years). */
const MAX_EXPIRY_DAYS = 3650;

function newKeyRequest(req: FastifyRequest): NewKeyRequest {
  const body = bodyOf(req);
  const name = typeof body.name === 'string' ? body.name.trim() : '';
  // eslint-disable-next-line no-control-regex
  if (name === '' || [...name].length > MAX_KEY_NAME_CHARS || /[\u0000-\u001f\u007f]/.test(name)) {
    throw apiError(
      'invalid_request',
      `name must be 1 to ${MAX_KEY_NAME_CHARS} printable characters`,
    );
  }
  const days = body.expiresInDays;
  if (days === undefined || days === null) return { name };
  if (typeof days !== 'number' || !Number.isInteger(days) || days < 0 || days > MAX_EXPIRY_DAYS) {
    throw apiError(
      'invalid_request',
      `expiresInDays must be a whole number from 0 (never) to ${MAX_EXPIRY_DAYS}`,
    );
  }
  return { name, expiresInDays: days };
}

/** Only recorded users own keys: the anonymous user is everyone, so it cannot. */
function ownerOf(req: FastifyRequest): string {
  const { user } = req.principal;
  if (!can(user.role, 'manageOwnApiKeys'))
    throw apiError('forbidden', 'you may not manage API keys');
  if (user.id === ANONYMOUS_ID) throw apiError('forbidden', 'sign in to manage API keys');
  return user.id;
}

/** The current user's API keys, and every user's for admins. */
export function registerApiKeyRoutes(app: FastifyInstance, ctx: DashboardContext): void {
  app.get('/api/settings/api-keys', async (req) => ({
    keys: await ctx.apiKeys.list(ownerOf(req)),
  }));

  app.post('/api/settings/api-keys', async (req, reply) => {
    const owner = ownerOf(req);
    if (req.principal.via === 'api-key') {
      throw apiError('forbidden', 'an API key cannot create API keys; sign in to create one');
    }
    if (!ctx.config.SVC_AUTH_API_KEYS_ENABLED) throw apiError('forbidden', 'API keys are disabled');
    const { key, record } = await ctx.apiKeys.create(owner, newKeyRequest(req), ctx.now());
    // The key is shown here once; only its prefix is ever shown again.
    return reply.code(201).send({ key, apiKey: record });
  });

  app.delete('/api/settings/api-keys/:id', async (req) => {
    const { id } = req.params as { id: string };
    if (!(await ctx.apiKeys.revoke(id, ctx.now(), ownerOf(req)))) {
      throw apiError('not_found', 'no such API key');
    }
    return { success: true };
  });

  const requireAll = (req: FastifyRequest) => {
    if (!can(req.principal.user.role, 'manageAllApiKeys')) {
      throw apiError('forbidden', 'only admins manage every user’s API keys');
    }
  };

  app.get('/api/admin/api-keys', async (req) => {
    requireAll(req);
    return { keys: await ctx.apiKeys.listAll(pageOf(req)) };
  });

  app.delete('/api/admin/api-keys/:id', async (req) => {
    requireAll(req);
    const { id } = req.params as { id: string };
    if (!(await ctx.apiKeys.revoke(id, ctx.now()))) throw apiError('not_found', 'no such API key');
    return { success: true };
  });
}
