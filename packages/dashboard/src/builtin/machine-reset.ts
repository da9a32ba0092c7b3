import { DashboardError } from '../errors.js';
import type { Store, UserRecord } from '../store/types.js';
import { hashPassword } from './passwords.js';
import { accountKey } from './sign-in-throttle.js';
import { checkPassword } from './validation.js';

/**
 * Sets a builtin user's password from the machine (`users reset-password`), as a reset mail would:
 * every session of the user ends (a running dashboard sees the new epoch within a second) and any
 * lockout of the account is lifted; the user's API keys stay. The store may be in use by a
 * running dashboard: SQLite in WAL mode and PostgreSQL both take the write alongside it.
 */
export async function resetBuiltinPassword(
  store: Store,
  login: string,
  password: string,
  minPasswordLength: number,
): Promise<UserRecord> {
  const checked = checkPassword(password, minPasswordLength);
  if (!checked.ok) throw new DashboardError('invalid_request', checked.message);
  const user = await store.users.findBuiltinByLogin(login.normalize('NFC'));
  if (!user) {
    throw new DashboardError('not_found', `no user of the built-in store is named "${login}"`);
  }
  const updated = await store.users.update(user.id, {
    passwordHash: await hashPassword(checked.value),
  });
  if (!updated) throw new DashboardError('not_found', `the user "${login}" was just deleted`);
  await store.users.bumpSessionEpoch(user.id);
  await store.loginFailures.resetAccount(accountKey(user.id, ''));
  return updated;
}
