import { logMailer, silentLogger } from '@paddock/common';
import { dashboardContext } from '../assemble.js';
import { loadDashboardConfig } from '../config.js';
import type { OAuthLogin } from '../oauth/login.js';
import { openStore } from '../store/open.js';
import { createDashboardApp } from './app.js';
import { openApiDocument } from './openapi-routes.js';

const SECRET = 'every-mode-document-session-secret-of-32-characters';

const notHere = () => Promise.reject(new Error('the document is only described, never served'));

/** An OAuth client whose routes are registered but never followed. */
const DESCRIBED_ONLY: OAuthLogin = {
  startLogin: notHere,
  finishLogin: notHere,
  refresh: notHere,
  endSessionUrl: () => undefined,
  verifyBearer: notHere,
};

/**
 * The OpenAPI document of every authentication mode at once, for the web interface's types: a
 * dashboard served answers with its own mode's routes, and the routes of oauth and builtin mode
 * mark the modes they exist in (`x-paddock-auth-modes`). Made from an app of builtin mode that
 * also registers the OAuth routes, on an in-memory store, never listening.
 */
export async function everyModeDocument(): Promise<Record<string, unknown>> {
  const config = loadDashboardConfig(
    { SVC_AUTH_MODE: 'builtin', SVC_SESSION_SECRET: SECRET },
    { randomSecret: () => SECRET },
  );
  const logger = silentLogger();
  const store = await openStore({ kind: 'sqlite', path: ':memory:' });
  try {
    const ctx = dashboardContext(config, {
      store,
      logger,
      mailer: logMailer(logger),
      oauth: DESCRIBED_ONLY,
    });
    const { app } = await createDashboardApp(ctx);
    try {
      await app.ready();
      return openApiDocument(app);
    } finally {
      await app.close();
    }
  } finally {
    await store.close();
  }
}
