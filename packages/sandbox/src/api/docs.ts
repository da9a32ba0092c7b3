import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FeatureModule } from './listener.js';
import { ROUTES } from './routes.js';

/**
 * The sandbox's self-description, always mounted on the human-facing listener: the OpenAPI
 * document, and a page rendering it with Swagger UI served from the sandbox itself (the
 * swagger-ui-dist package), so that it works where outbound access is blocked.
 */

/** The swagger-ui-dist files the page links to: the only package files the assets route serves. */
const SWAGGER_UI_FILES: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

/** The page's start code, a file of its own so that the CSP needs no inline script. */
export const INIT_SCRIPT_NAME = 'docs-init.js';
const INIT_SCRIPT = `// Starts Swagger UI on the sandbox's own description. Paths are relative to the page so that the
// docs work under whatever prefix the routing service mounts the sandbox.
window.ui = SwaggerUIBundle({
  url: new URL('openapi.yaml', document.baseURI).href,
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  deepLinking: true,
  docExpansion: 'list',
  // No badge from validator.swagger.io: the page must need nothing from outside.
  validatorUrl: null,
});
`;

/**
 * Scripts, styles, fonts and fetches from the sandbox only; images also as data: URLs (Swagger UI's
 * stylesheet embeds its icons that way). Nothing may frame the page.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** How long a browser may keep an asset fetched by its versioned URL: a year, the usual maximum. */
const IMMUTABLE_MAX_AGE_S = 365 * 24 * 60 * 60;

/** Hex digits of the content hash in ETags and ?v= (collisions are harmless: the ETag is checked). */
const HASH_LENGTH = 16;

interface Asset {
  body: Buffer;
  contentType: string;
  /** Content hash: the ETag, and the `v` query of the page's links. */
  hash: string;
}

let assetsLoaded: Promise<ReadonlyMap<string, Asset>> | undefined;

/** The allow-listed files, read once per process and kept in memory (about 2 MB). */
function loadAssets(): Promise<ReadonlyMap<string, Asset>> {
  assetsLoaded ??= (async () => {
    const require = createRequire(import.meta.url);
    const dist = dirname(require.resolve('swagger-ui-dist/package.json'));
    const assets = new Map<string, Asset>();
    for (const [name, contentType] of Object.entries(SWAGGER_UI_FILES)) {
      assets.set(name, asset(await readFile(join(dist, name)), contentType));
    }
    assets.set(INIT_SCRIPT_NAME, asset(Buffer.from(INIT_SCRIPT), 'text/javascript; charset=utf-8'));
    return assets;
  })();
  return assetsLoaded;
}

function asset(body: Buffer, contentType: string): Asset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, HASH_LENGTH);
  return { body, contentType, hash };
}

/** The page; asset links are relative to `/api/docs` and carry their content hash. */
export function docsPage(assets: ReadonlyMap<string, Asset>): string {
  const link = (name: string) => `docs/assets/${name}?v=${assets.get(name)?.hash ?? ''}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Paddock sandbox API</title>
<link rel="icon" type="image/png" sizes="32x32" href="${link('favicon-32x32.png')}">
<link rel="icon" type="image/png" sizes="16x16" href="${link('favicon-16x16.png')}">
<link rel="stylesheet" href="${link('swagger-ui.css')}">
</head>
<body>
<noscript>This page needs JavaScript; the description itself is at <a href="openapi.yaml">openapi.yaml</a>.</noscript>
<div id="swagger-ui"></div>
<script src="${link('swagger-ui-bundle.js')}"></script>
<script src="${link(INIT_SCRIPT_NAME)}"></script>
</body>
</html>
`;
}

/** Whether an If-None-Match header names this ETag (a list, weak tags and `*` included). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

export const docsFeature: FeatureModule = async (app) => {
  const assets = await loadAssets();
  const page = docsPage(assets);

  app.get(ROUTES.openApi.path, { schema: ROUTES.openApi.schema }, async (_req, reply) => {
    // Made on its first request, from a declare-only app of every route (openapi.ts): the
    // sandbox starts, and serves its tools, without building it or loading what builds it.
    const { openApiDescription } = await import('./openapi.js');
    const { yaml } = await openApiDescription();
    return reply
      .header('content-type', 'application/yaml; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .send(yaml);
  });

  app.get(ROUTES.docs.path, { schema: ROUTES.docs.schema }, (_req, reply) =>
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', DOCS_CSP)
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .send(page),
  );

  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .get(ROUTES.docsAsset.path, { schema: ROUTES.docsAsset.schema }, (req, reply) => {
      // An exact lookup in the allow-list: no name can reach another file, `..` included.
      const found = assets.get(req.params['*']);
      if (!found) {
        return reply
          .code(404)
          .send({ error: 'not_found', message: `no documentation asset ${req.params['*']}` });
      }
      const etag = `"${found.hash}"`;
      const versioned = req.query.v === found.hash;
      void reply
        .header('etag', etag)
        .header(
          'cache-control',
          versioned ? `public, max-age=${IMMUTABLE_MAX_AGE_S}, immutable` : 'no-cache',
        )
        .header('x-content-type-options', 'nosniff');
      if (etagMatches(req.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.header('content-type', found.contentType).send(found.body);
    });
};
