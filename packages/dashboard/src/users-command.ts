import { existsSync } from 'node:fs';
import { generatedPassword } from './builtin/accounts.js';
import { resetBuiltinPassword } from './builtin/machine-reset.js';
import { MAX_PASSWORD_CHARS } from './builtin/passwords.js';
import { isDashboardError } from './errors.js';
import { openStore, type StoreOptions } from './store/open.js';

/** The most read from stdin for --password-stdin: the longest password, in UTF-8, and a newline. */
const MAX_STDIN_BYTES = MAX_PASSWORD_CHARS * 4 + 2;

export interface ResetPasswordCommand {
  /** The dashboard's store: its SQLite file or PostgreSQL database. */
  store: StoreOptions;
  /** The builtin user, by username (or e-mail address). */
  username: string;
  /** Read the new password from stdin (one line) instead of generating one. */
  passwordStdin: boolean;
  /** SVC_BUILTIN_MIN_PASSWORD_LENGTH of the dashboard, for a password given on stdin. */
  minPasswordLength: number;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** stdin's one line, without its line break; bounded. */
async function readPasswordLine(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_STDIN_BYTES) throw new Error('the password on stdin is too long');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/**
 * `users reset-password <username>`, of `paddock-dashboard` (the store of its SVC_* variables)
 * and of `paddock` (the local platform's store): sets a new password, generated and printed
 * unless one comes on stdin, and ends the user's sessions. Resolves with the exit code: 1 for an
 * unknown user or an unacceptable password, with the reason on stderr.
 */
export async function resetPasswordCommand(command: ResetPasswordCommand): Promise<number> {
  const { store: where, username, stdout, stderr } = command;
  if (where.kind === 'sqlite' && !existsSync(where.path)) {
    // Opening would create an empty store: there is nobody to reset in it.
    stderr.write(`error: there is no user store at ${where.path}\n`);
    return 1;
  }
  const password = command.passwordStdin
    ? await readPasswordLine(command.stdin)
    : generatedPassword();
  const store = await openStore(where);
  try {
    const user = await resetBuiltinPassword(store, username, password, command.minPasswordLength);
    stdout.write(
      `The password of ${user.username} is reset, and every session of ${user.username} has ended (API keys stay valid).\n`,
    );
    if (!command.passwordStdin) stdout.write(`New password: ${password}\n`);
    if (user.disabled) {
      stdout.write('The account is disabled: an admin enables it on the Users page.\n');
    }
    return 0;
  } catch (err) {
    if (!isDashboardError(err)) throw err;
    stderr.write(`error: ${err.message}\n`);
    return 1;
  } finally {
    await store.close();
  }
}
