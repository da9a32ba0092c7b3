import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { apiError } from './errors.js';

/** Where the built web interface is: the dist/ folder of @paddock/dashboard-web. */
export function webRoot(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@paddock/dashboard-web/package.json')), 'dist');
}

/** The web interface's routes: pages and files, not part of the API or its description. */
export const WEB_ROUTES = ['/assets/*', '/favicon.svg', '/*'] as const;

/** Hashed file names change with their content: cached for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The page and the unhashed files: revalidated on every load, so a new version shows at once. */
const REVALIDATE = 'no-cache';

/**
 * The web interface: its files, and index.html for every other path outside /api/ so that the
 * single-page app's own routes (/login, /workspaces/…) load it. Every one of these is public: the
 * page itself asks the API who is signed in.
 */
export async function registerWebRoutes(app: FastifyInstance, root = webRoot()): Promise<void> {
  const built = existsSync(join(root, 'index.html'));
  // The plugin's own Cache-Control is off: each route below says how its files are cached.
  if (built) {
    await app.register(fastifyStatic, {
      root,
      serve: false,
      decorateReply: true,
      cacheControl: false,
    });
  }
  const isPublic = { config: { access: 'public' as const } };

  app.get('/assets/*', isPublic, (req, reply) => {
    if (!built) throw notBuilt();
    const file = (req.params as { '*': string })['*'];
    return reply.header('cache-control', IMMUTABLE).sendFile(join('assets', file));
  });

  app.get('/favicon.svg', isPublic, (_req, reply) => {
    if (!built) throw notBuilt();
    return reply.header('cache-control', REVALIDATE).sendFile('favicon.svg');
  });

  // Under /api/ this answers as an unknown API route, after authentication like every API route.
  app.get('/*', { config: { access: 'page' as const } }, (req, reply) => {
    if (isApiPath(req.url)) {
      throw apiError('not_found', `no route for ${req.method} ${req.url.split('?')[0]}`);
    }
    if (!built) throw notBuilt();
    return reply
      .header('cache-control', REVALIDATE)
      .type('text/html; charset=utf-8')
      .sendFile('index.html');
  });
}

/** Whether a request path is the API's (/api and below). */
export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

function notBuilt() {
  return apiError('unavailable', 'the web interface is not built: run npm run build');
}
