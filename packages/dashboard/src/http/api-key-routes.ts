import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_KEY_NAME_CHARS, type NewKeyRequest } from '../auth/apikeys/service.js';
import { ANONYMOUS_ID } from '../auth/identity.js';
import { can } from '../auth/permissions.js';
import type { DashboardContext } from './context.js';
import { apiError } from './errors.js';
import { operation, PAGING_ERRORS } from './operation.js';
import { pageOf } from './paging.js';
import { ApiKeyId, ApiKeyList, NewApiKey, NewApiKeyAnswer } from './schemas/api-keys.js';
import { answer, Paging, Success } from './schemas/common.js';

/** The name of a new key: trimmed, 1 to MAX_KEY_NAME_CHARS printable characters. */
function keyName(raw: string): string {
  const name = raw.trim();
  // eslint-disable-next-line no-control-regex
  if (name === '' || [...name].length > MAX_KEY_NAME_CHARS || /[\u0000-\u001f\u007f]/.test(name)) {
    throw apiError(
      'invalid_request',
      `name must be 1 to ${MAX_KEY_NAME_CHARS} printable characters`,
    );
  }
  return name;
}

/** Only recorded users own keys: the anonymous user is everyone, so it cannot. */
function ownerOf(req: FastifyRequest): string {
  const { user } = req.principal;
  if (!can(user.role, 'manageOwnApiKeys'))
    throw apiError('forbidden', 'you may not manage API keys');
  if (user.id === ANONYMOUS_ID) throw apiError('forbidden', 'sign in to manage API keys');
  return user.id;
}

const ADMINS_ONLY = { forbidden: 'Only admins manage every user’s API keys.' };

/** The current user's API keys, and every user's for admins. */
export function registerApiKeyRoutes(app: FastifyInstance, ctx: DashboardContext): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/api/settings/api-keys',
    {
      schema: operation(
        {
          operationId: 'listOwnApiKeys',
          summary: 'Your API keys',
          description:
            'The caller’s keys that are not revoked (expired ones included), newest first. Never ' +
            'the secret: only its first characters (`prefix`).',
          tag: 'api-keys',
          errors: { forbidden: 'The anonymous user owns no keys: sign in.' },
        },
        { response: { 200: answer('The keys.', ApiKeyList) } },
      ),
    },
    async (req) => ({ keys: await ctx.apiKeys.list(ownerOf(req)) }),
  );

  api.post(
    '/api/settings/api-keys',
    {
      schema: operation(
        {
          operationId: 'createApiKey',
          summary: 'Create an API key',
          description:
            'Creates a key for the caller. The key itself is in this answer only, once; store it. ' +
            'It authenticates as its owner (`provider: api-key`) with the owner’s current role.',
          tag: 'api-keys',
          errors: {
            forbidden:
              'The anonymous user owns no keys; an API key cannot create keys (sign in); or API ' +
              'keys are disabled (SVC_AUTH_API_KEYS_ENABLED=false).',
            invalid_request: 'name or expiresInDays is not acceptable.',
            api_key_limit_reached: 'The user has SVC_AUTH_API_KEYS_MAX_PER_USER keys already.',
          },
        },
        { body: NewApiKey, response: { 201: answer('Created.', NewApiKeyAnswer) } },
      ),
    },
    async (req, reply) => {
      const owner = ownerOf(req);
      if (req.principal.via === 'api-key') {
        throw apiError('forbidden', 'an API key cannot create API keys; sign in to create one');
      }
      if (!ctx.config.SVC_AUTH_API_KEYS_ENABLED)
        throw apiError('forbidden', 'API keys are disabled');
      const { expiresInDays } = req.body;
      const request: NewKeyRequest = { name: keyName(req.body.name) };
      if (expiresInDays !== undefined && expiresInDays !== null)
        request.expiresInDays = expiresInDays;
      const { key, record } = await ctx.apiKeys.create(owner, request, ctx.now());
      // The key is shown here once; only its prefix is ever shown again.
      return reply.code(201).send({ key, apiKey: record });
    },
  );

  api.delete(
    '/api/settings/api-keys/:id',
    {
      schema: operation(
        {
          operationId: 'revokeOwnApiKey',
          summary: 'Revoke one of your API keys',
          description:
            'Revokes the key at once. Another user’s key answers 404, as an unknown id does.',
          tag: 'api-keys',
          errors: {
            forbidden: 'The anonymous user owns no keys.',
            not_found: 'No such key of the caller (or it is revoked already).',
          },
        },
        { params: ApiKeyId, response: { 200: answer('Done.', Success) } },
      ),
    },
    async (req) => {
      if (!(await ctx.apiKeys.revoke(req.params.id, ctx.now(), ownerOf(req)))) {
        throw apiError('not_found', 'no such API key');
      }
      return { success: true } as const;
    },
  );

  const requireAll = (req: FastifyRequest) => {
    if (!can(req.principal.user.role, 'manageAllApiKeys')) {
      throw apiError('forbidden', 'only admins manage every user’s API keys');
    }
  };

  api.get(
    '/api/admin/api-keys',
    {
      schema: operation(
        {
          operationId: 'listAllApiKeys',
          summary: 'Every user’s API keys',
          description:
            'The keys of every user that are not revoked, newest first, one page of them. Admins ' +
            'only. Unlike the other lists, the answer holds no `total`, `limit` or `offset`.',
          tag: 'api-keys',
          errors: [ADMINS_ONLY, PAGING_ERRORS],
        },
        { querystring: Paging, response: { 200: answer('The keys.', ApiKeyList) } },
      ),
    },
    async (req) => {
      requireAll(req);
      return { keys: await ctx.apiKeys.listAll(pageOf(req.query)) };
    },
  );

  api.delete(
    '/api/admin/api-keys/:id',
    {
      schema: operation(
        {
          operationId: 'revokeApiKey',
          summary: 'Revoke any API key',
          description: 'Revokes any user’s key at once. Admins only.',
          tag: 'api-keys',
          errors: { ...ADMINS_ONLY, not_found: 'No such key (or it is revoked already).' },
        },
        { params: ApiKeyId, response: { 200: answer('Done.', Success) } },
      ),
    },
    async (req) => {
      requireAll(req);
      if (!(await ctx.apiKeys.revoke(req.params.id, ctx.now())))
        throw apiError('not_found', 'no such API key');
      return { success: true } as const;
    },
  );
}
