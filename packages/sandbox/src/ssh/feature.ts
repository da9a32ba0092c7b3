import type { FeatureModule } from '../api/listener.js';
import { SshKeyRegistry } from './keys.js';
import { registerSshRoutes } from './routes.js';
import { startSshServer } from './server.js';

/**
 * `-enable-ssh`: the embedded SSH server on 127.0.0.1 (an OS-chosen port) and the routes that
 * register the public keys it accepts and tell where it listens. Keys live in memory only.
 */
export const sshFeature: FeatureModule = async (app, ctx) => {
  const keys = new SshKeyRegistry();
  const server = await startSshServer({
    workspace: ctx.workspace,
    keys,
    childEnv: ctx.childEnv,
    logger: ctx.logger,
    audit: ctx.audit,
  });
  let listening = true;
  registerSshRoutes(app, ctx, keys, () =>
    listening ? { port: server.port, hostKeys: server.hostKeys } : undefined,
  );
  ctx.logger.info({ sshPort: server.port }, 'SSH server listening on 127.0.0.1');
  return {
    close: async () => {
      listening = false;
      await server.close();
    },
  };
};
