import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Kube } from '@paddock/kube';
import {
  createLogger,
  formatAddress,
  httpUrl,
  listen,
  loggingFromEnv,
  type Logger,
  mailerFrom,
  packageInfo,
  onlyOption,
  Shutdown,
  UsageError,
} from '@paddock/common';
import { dashboardContext } from './assemble.js';
import { loadDashboardConfig } from './config.js';
import { createDashboardApp } from './http/app.js';
import { OAuthClient } from './oauth/client.js';
import { withUserCache } from './store/cached-users.js';
import { WorkspaceDirectory } from './workspaces/directory.js';
import type { Workspaces } from './workspaces/service.js';
import { WorkspaceTokens } from './workspaces/tokens.js';
import { openStore, storeOptionsOf } from './store/open.js';
import { resetPasswordCommand } from './users-command.js';

export const USAGE = `Usage: paddock-dashboard [--kubeconfig FILE] [--help] [--version]
       paddock-dashboard users reset-password USERNAME [--password-stdin]

Serves the Paddock dashboard. Everything is configured through SVC_* environment variables
(docs/dashboard/authentication.md): SVC_AUTH_MODE (anonymous, proxy, oauth, builtin),
SVC_LISTEN_ADDR (default 127.0.0.1:3000), SVC_SESSION_SECRET, SVC_BUILTIN_SQLITE_PATH, ...
Workspaces come from the cluster of --kubeconfig, else of KUBECONFIG, else the in-cluster
configuration of its pod; with none of these the dashboard serves authentication only.

users reset-password sets a new password for a built-in user in the store of the same SVC_*
variables (the dashboard may be running) and ends the user's sessions: a generated password is
printed, or one line is read from stdin with --password-stdin.`;

/**
 * The workspaces of the cluster the dashboard is given, watched from the start. Without a cluster
 * (none named, none in the environment) it serves authentication alone; a cluster named but
 * unusable is an error.
 */
function connectWorkspaces(
  kubeconfig: string | undefined,
  env: NodeJS.ProcessEnv,
  logger: Logger,
): Workspaces | undefined {
  let kube: Kube;
  try {
    kube = Kube.connect(kubeconfig === undefined ? {} : { kubeconfig });
  } catch (err) {
    if (kubeconfig !== undefined || env.KUBECONFIG !== undefined) throw err;
    logger.warn(
      'no cluster configured (no --kubeconfig, KUBECONFIG or in-cluster configuration): workspace endpoints answer 503',
    );
    return undefined;
  }
  const directory = new WorkspaceDirectory(kube, (err) =>
    logger.warn({ err }, 'workspace watch failed'),
  ).start();
  return { directory, tokens: new WorkspaceTokens(kube), kube };
}

/**
 * `paddock-dashboard users reset-password <username> [--password-stdin]`: on the store of the
 * dashboard's own SVC_* variables, so that `kubectl exec deploy/paddock-dashboard --
 * paddock-dashboard users reset-password admin` works where the dashboard runs.
 */
async function usersCommand(args: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: { 'password-stdin': { type: 'boolean' } },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const [action, username, ...rest] = parsed.positionals;
  if (action !== 'reset-password') {
    throw new UsageError(
      action === undefined ? 'users needs a command' : `unknown users command "${action}"`,
    );
  }
  if (username === undefined) throw new UsageError('reset-password needs a username');
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
  const config = loadDashboardConfig(env, { randomSecret: () => '' });
  process.exitCode = await resetPasswordCommand({
    store: storeOptionsOf(config),
    username,
    passwordStdin: parsed.values['password-stdin'] === true,
    minPasswordLength: config.SVC_BUILTIN_MIN_PASSWORD_LENGTH,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
  });
}

/** `paddock-dashboard`: read the configuration, open the store, serve until a signal. */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h'))
    return void process.stdout.write(`${USAGE}\n`);
  if (argv[0] === 'users') return usersCommand(argv.slice(1), env);
  const { version } = packageInfo(import.meta.url);
  if (argv.includes('--version')) return void process.stdout.write(`${version}\n`);
  const kubeconfig = onlyOption(argv, '--kubeconfig', 'a file');

  const config = loadDashboardConfig(env, {
    randomSecret: () => randomBytes(32).toString('base64url'),
  });
  const logger = createLogger({ name: 'paddock-dashboard', ...loggingFromEnv(env) });
  if (config.sessionSecretGenerated) {
    logger.warn(
      'SVC_SESSION_SECRET is not set: a random one is used, so sessions (and API keys, unless SVC_AUTH_API_KEYS_SECRET is set) will not survive a restart',
    );
  }
  const store = withUserCache(await openStore(storeOptionsOf(config)));
  const shutdown = new Shutdown({ logger }).add('store', () => store.close()).listen();

  const mailer = config.SVC_AUTH_MODE === 'builtin' ? mailerFrom(config, logger) : undefined;
  if (mailer) shutdown.add('mailer', () => mailer.close());
  const oauth = config.SVC_AUTH_MODE === 'oauth' ? await OAuthClient.create(config) : undefined;
  if (config.SVC_AUTH_MODE === 'proxy' && config.SVC_AUTH_PROXY_TRUSTED_ADDRESSES.length === 0) {
    logger.warn(
      'proxy mode trusts the identity headers of every peer: set SVC_AUTH_PROXY_TRUSTED_ADDRESSES to the proxy’s addresses',
    );
  }
  const workspaces = connectWorkspaces(kubeconfig, env, logger);
  if (workspaces) {
    shutdown.add('workspaces', () => {
      workspaces.directory.stop();
      workspaces.kube.close();
    });
  }

  const ctx = dashboardContext(config, {
    store,
    logger,
    ...(mailer ? { mailer } : {}),
    ...(oauth ? { oauth } : {}),
    ...(workspaces ? { workspaces } : {}),
  });
  if (ctx.accounts) {
    const admin = await ctx.accounts.ensureInitialAdmin({
      username: config.SVC_BUILTIN_ADMIN_USERNAME,
      email: config.SVC_BUILTIN_ADMIN_EMAIL,
      password: config.SVC_BUILTIN_ADMIN_PASSWORD,
    });
    if (admin.generatedPassword !== undefined) {
      logger.warn(
        { username: config.SVC_BUILTIN_ADMIN_USERNAME, password: admin.generatedPassword },
        'initial admin created with a generated password, shown only this once: sign in and keep it safe',
      );
    } else if (admin.created) {
      logger.info({ username: config.SVC_BUILTIN_ADMIN_USERNAME }, 'initial admin created');
    }
  }

  const { app, health } = await createDashboardApp(ctx);
  if (workspaces) health.addCheck('workspaces', () => workspaces.directory.isSynced);
  shutdown.add('http', async () => {
    health.startDraining();
    await app.close();
  });
  const bound = await listen(app, config.SVC_LISTEN_ADDR);
  logger.info(
    {
      addr: formatAddress(bound),
      url: httpUrl(bound, '/'),
      mode: config.SVC_AUTH_MODE,
      store: store.kind,
    },
    'dashboard listening',
  );
}
