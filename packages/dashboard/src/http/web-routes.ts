import { existsSync, readFileSync } from 'node:fs';
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

/** What the build of the web interface writes its page paths to (its src/page-paths.ts). */
export const PAGE_PATHS_FILE = 'page-paths.json';

/** The web interface's routes: pages and files, not part of the API or its description. */
export const WEB_ROUTES = ['/assets/*', '/favicon.svg', '/*'] as const;

/** Hashed file names change with their content: cached for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The page and the unhashed files: revalidated on every load, so a new version shows at once. */
const REVALIDATE = 'no-cache';

/**
 * The web interface: its files, and index.html for the single-page app's own page paths (/login,
 * /workspaces/…, as its build lists them); any other path is a 404 like an unknown API route.
 * Every one of these is public: the page itself asks the API who is signed in.
 */
export async function registerWebRoutes(app: FastifyInstance, root = webRoot()): Promise<void> {
  const pages = pagePathsOf(root);
  const built = existsSync(join(root, 'index.html')) && pages !== undefined;
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
    const path = req.url.split('?')[0]!;
    if (isApiPath(req.url)) throw apiError('not_found', `no route for ${req.method} ${path}`);
    if (!built) throw notBuilt();
    if (!isPagePath(path, pages)) throw apiError('not_found', `no route for ${req.method} ${path}`);
    return reply
      .header('cache-control', REVALIDATE)
      .type('text/html; charset=utf-8')
      .sendFile('index.html');
  });
}

/** The page paths the build wrote; undefined when it wrote none (not built, or built before). */
function pagePathsOf(root: string): string[] | undefined {
  const file = join(root, PAGE_PATHS_FILE);
  if (!existsSync(file)) return undefined;
  const patterns: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(patterns) || !patterns.every((p) => typeof p === 'string')) {
    throw new Error(`${file} is not a list of page paths: build the web interface again`);
  }
  return patterns;
}

/**
 * Whether a path (without its query) is one of the pages' patterns, matched as the web app's
 * router does: `:param` is one non-empty segment, a trailing `*` any rest, a trailing slash
 * is ignored.
 */
export function isPagePath(path: string, patterns: readonly string[]): boolean {
  const segments = path.replace(/(.)\/$/, '$1').split('/');
  return patterns.some((pattern) => {
    const wanted = pattern.split('/');
    for (const [i, part] of wanted.entries()) {
      if (part === '*' && i === wanted.length - 1) return true;
      const segment = segments[i];
      if (segment === undefined) return false;
      if (part.startsWith(':') ? segment === '' : segment !== part) return false;
    }
    return segments.length === wanted.length;
  });
}

/** Whether a request path is the API's (/api and below). */
export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

function notBuilt() {
  return apiError('unavailable', 'the web interface is not built: run npm run build');
}
