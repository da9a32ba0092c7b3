import { UsageError } from '@paddock/common';
import { localUserStore } from './components.js';

/**
 * `paddock users reset-password USERNAME`: the dashboard's own command (resetPasswordCommand) on
 * the local platform's store under the data folder. The dashboard is loaded only for this
 * command, which needs its store.
 */
export async function resetLocalPassword(
  args: readonly string[],
  dataDir: string,
  passwordStdin: boolean,
): Promise<number> {
  const [action, username, ...rest] = args;
  if (action !== 'reset-password') {
    throw new UsageError(
      action === undefined ? 'users needs a command' : `unknown users command "${action}"`,
    );
  }
  if (username === undefined) throw new UsageError('reset-password needs a username');
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
  const { loadDashboardConfig, resetPasswordCommand } = await import('@paddock/dashboard');
  // The local dashboard runs with the defaults beside its store (components.ts).
  const config = loadDashboardConfig({}, { randomSecret: () => '' });
  return resetPasswordCommand({
    store: { kind: 'sqlite', path: localUserStore(dataDir) },
    username,
    passwordStdin,
    minPasswordLength: config.SVC_BUILTIN_MIN_PASSWORD_LENGTH,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
  });
}
