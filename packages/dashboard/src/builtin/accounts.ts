import { createHash, randomBytes } from 'node:crypto';
import type { Logger } from '@paddock/common';
import type { Role } from '../auth/user.js';
import { DashboardError } from '../errors.js';
import {
  UniqueViolation,
  type NewUser,
  type Store,
  type TokenPurpose,
  type UserRecord,
} from '../store/types.js';
import type { Mailer } from '@paddock/common';
import {
  hashPassword,
  MAX_PASSWORD_CHARS,
  verifyAgainstNothing,
  verifyPassword,
} from './passwords.js';
import { PasswordQueue } from './password-queue.js';
import {
  ACCOUNT_ATTACK_FAILURES,
  ACCOUNT_ATTACK_WINDOW_MS,
  accountKey,
  attackKey,
  attemptsPerSource,
  LOCKOUT_BACKOFF,
  pairKey,
} from './sign-in-throttle.js';
import { checkDisplayName, checkEmail, checkPassword, checkUsername } from './validation.js';

export interface AccountPolicy {
  allowSignup: boolean;
  verifyEmail: boolean;
  minPasswordLength: number;
  maxFailedAttempts: number;
  lockoutSeconds: number;
  resetTokenSeconds: number;
  verificationTokenSeconds: number;
  /** Where the links of mails point: `{origin}/reset-password?token=…`, `{origin}/verify-email?token=…`. */
  publicOrigin: string;
  /** Whether mails really go out (SVC_SMTP_URL), rather than only into the log. */
  mailConfigured: boolean;
}

/** A user an admin creates: the fields of sign-up without the password, plus role and groups. */
export interface NewAccountRequest {
  username: unknown;
  email: unknown;
  displayName?: unknown;
  roleOverride?: Role | null;
  groups?: string[];
}

/**
 * A user an admin created: with mail, the user was sent a link to choose a password; without,
 * `initialPassword` is the generated one, shown to the admin once.
 */
export interface CreatedAccount {
  user: UserRecord;
  initialPassword?: string;
  setPasswordMailSent: boolean;
}

/** Random bytes of a generated password (24 base64url characters, 144 bits). */
export const GENERATED_PASSWORD_BYTES = 18;

export function generatedPassword(): string {
  return randomBytes(GENERATED_PASSWORD_BYTES).toString('base64url');
}

export interface SignupRequest {
  username: unknown;
  email: unknown;
  password: unknown;
  displayName?: unknown;
}

/** The username, e-mail and display name of a new account, as sign-up checks them. */
function checkedIdentity(request: Pick<SignupRequest, 'username' | 'email' | 'displayName'>) {
  const username = checkUsername(request.username);
  if (!username.ok) throw new DashboardError('invalid_request', username.message);
  const email = checkEmail(request.email);
  if (!email.ok) throw new DashboardError('invalid_request', email.message);
  const displayName = checkDisplayName(request.displayName);
  if (!displayName.ok) throw new DashboardError('invalid_request', displayName.message);
  return { username: username.value, email: email.value, displayName: displayName.value };
}

/** A random single-use token and the hash under which it is stored. */
function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: tokenHash(token) };
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Longest token taken from a request: ours are 43 characters. */
const MAX_TOKEN_CHARS = 128;
/**
 * A reset or verification mail goes to an account at most this often: a request within it sends
 * nothing and leaves the link already sent working.
 */
export const MAIL_COOLDOWN_MS = 10 * 60 * 1000;

/**
 * The built-in user store's rules: sign-in with lockout, sign-up, e-mail verification, password
 * reset and change, and the accounts admins create. Failed sign-ins are counted per (account, source) when the identifier names an account
 * and per (identifier, source) otherwise, answered identically and after the same argon2 work, so
 * neither the answer, its timing nor the lockout tells which accounts exist. Every argon2
 * computation goes through one bounded queue, which sheds load with 429 instead of queueing.
 */
export class Accounts {
  private readonly queue = new PasswordQueue();

  constructor(
    private readonly store: Store,
    private readonly mailer: Mailer,
    private readonly policy: AccountPolicy,
    private readonly logger: Logger,
  ) {}

  /**
   * Signs in from `source` (the client address). Failures lock only the (account, source) pair,
   * never the account for everyone, and end no session; see sign-in-throttle.ts.
   */
  async login(
    identifier: unknown,
    password: unknown,
    source: string,
    now: number,
  ): Promise<UserRecord> {
    if (typeof identifier !== 'string' || typeof password !== 'string' || identifier === '') {
      throw new DashboardError('invalid_request', 'username and password are required strings');
    }
    if (identifier.length > 320 || password.length > 4096) {
      await this.queue.run(() => verifyAgainstNothing(password.slice(0, 4096)));
      throw new DashboardError('invalid_credentials', 'wrong username or password');
    }
    const normalized = identifier.normalize('NFC');
    const account = await this.store.users.findBuiltinByLogin(normalized);
    const ok = await this.passwordMatches(
      account,
      accountKey(account?.id, normalized),
      password,
      source,
      now,
    );
    if (!ok || !account)
      throw new DashboardError('invalid_credentials', 'wrong username or password');
    if (account.disabled) throw new DashboardError('forbidden', 'this account is disabled');
    if (this.policy.verifyEmail && !account.emailVerified) {
      throw new DashboardError(
        'email_not_verified',
        'confirm your e-mail address first; see the mail we sent',
      );
    }
    await this.store.loginFailures.reset(pairKey(accountKey(account.id, normalized), source));
    return account;
  }

  /**
   * Whether `password` is the account's, under the sign-in throttle: a locked (account, source)
   * pair is refused (account_locked) before any argon2 work, and a wrong password counts as a
   * failed sign-in (and may lock the pair). No account: the same work, then false.
   */
  private async passwordMatches(
    account: UserRecord | undefined,
    accountOf: string,
    password: string,
    source: string,
    now: number,
  ): Promise<boolean> {
    const pair = pairKey(accountOf, source);
    const lockedUntil = await this.store.loginFailures.lockedUntil(pair, now);
    if (lockedUntil !== null) throw this.locked(lockedUntil - now);
    const ok = await this.queue.run(() =>
      account?.passwordHash
        ? verifyPassword(account.passwordHash, password)
        : verifyAgainstNothing(password).then(() => false),
    );
    if (ok && account) return true;
    const attack = attackKey(accountOf);
    const underAttack = (await this.store.loginFailures.lockedUntil(attack, now)) !== null;
    await this.store.loginFailures.recordFailure(
      attack,
      now,
      ACCOUNT_ATTACK_FAILURES,
      ACCOUNT_ATTACK_WINDOW_MS,
    );
    const lockEnd = await this.store.loginFailures.recordFailure(
      pair,
      now,
      attemptsPerSource(this.policy.maxFailedAttempts, underAttack),
      this.policy.lockoutSeconds * 1000,
      LOCKOUT_BACKOFF,
    );
    if (lockEnd !== null) throw this.locked(lockEnd - now);
    return false;
  }

  /**
   * A signed-in builtin user changes their own password. The current one is checked under the
   * sign-in throttle, so a stolen session cannot guess it faster than the login form could. On
   * success every session of the user ends (the caller re-issues its own); API keys stay.
   */
  async changePassword(
    userId: string,
    currentPassword: unknown,
    newPassword: unknown,
    source: string,
    now: number,
  ): Promise<UserRecord> {
    if (typeof currentPassword !== 'string' || currentPassword.length > MAX_PASSWORD_CHARS) {
      throw new DashboardError('invalid_request', 'currentPassword must be a string');
    }
    const checked = this.acceptable(newPassword);
    const account = await this.store.users.findById(userId);
    if (!account || account.provider !== 'builtin') {
      throw new DashboardError(
        'invalid_request',
        'only users of the built-in store have a password here',
      );
    }
    if (
      !(await this.passwordMatches(
        account,
        accountKey(account.id, ''),
        currentPassword,
        source,
        now,
      ))
    ) {
      throw new DashboardError('invalid_credentials', 'the current password is wrong');
    }
    await this.store.loginFailures.reset(pairKey(accountKey(account.id, ''), source));
    const passwordHash = await this.queue.run(() => hashPassword(checked));
    const updated = await this.store.users.update(account.id, { passwordHash });
    if (!updated) throw new DashboardError('not_found', 'no such user');
    await this.store.users.bumpSessionEpoch(account.id);
    return { ...updated, sessionEpoch: updated.sessionEpoch + 1 };
  }

  /** The new password, or password_too_short / invalid_request. */
  private acceptable(password: unknown): string {
    const checked = checkPassword(password, this.policy.minPasswordLength);
    if (!checked.ok) {
      throw new DashboardError(
        checked.tooShort ? 'password_too_short' : 'invalid_request',
        checked.message,
      );
    }
    return checked.value;
  }

  /** account_locked, saying how long the lock has left (locks in a row grow longer). */
  private locked(remainingMs: number) {
    const minutes = Math.max(1, Math.ceil(remainingMs / 60_000));
    return new DashboardError(
      'account_locked',
      `too many failed sign-ins: try again in ${minutes} minute${minutes === 1 ? '' : 's'}`,
    );
  }

  async signup(request: SignupRequest, now: number): Promise<UserRecord> {
    if (!this.policy.allowSignup)
      throw new DashboardError('signup_disabled', 'sign-up is disabled');
    const { username, email, displayName } = checkedIdentity(request);
    const password = checkPassword(request.password, this.policy.minPasswordLength);
    if (!password.ok) {
      throw new DashboardError(
        password.tooShort ? 'password_too_short' : 'invalid_request',
        password.message,
      );
    }
    const user = await this.createRecord({
      provider: 'builtin',
      username,
      email,
      displayName,
      passwordHash: await this.queue.run(() => hashPassword(password.value)),
      emailVerified: false,
    });
    if (this.policy.verifyEmail) await this.sendVerification(user, now);
    return user;
  }

  /** Creates the record; a taken username or e-mail answers as sign-up does. */
  private async createRecord(user: NewUser): Promise<UserRecord> {
    try {
      return await this.store.users.create(user);
    } catch (err) {
      if (err instanceof UniqueViolation) {
        throw err.field === 'email'
          ? new DashboardError('email_exists', 'that e-mail address is already registered')
          : new DashboardError('username_exists', 'that username is taken');
      }
      throw err;
    }
  }

  /**
   * An admin creates a user, with sign-up's checks and errors. With mail configured the user gets
   * a link to choose their password (valid SVC_BUILTIN_RESET_TOKEN_EXPIRATION) and nobody else
   * ever knows it; without, a generated password is answered once for the admin to hand over.
   * The admin vouches for the address: it counts as verified when no mail can prove it, and
   * following the mailed link proves it otherwise.
   */
  async createByAdmin(request: NewAccountRequest, now: number): Promise<CreatedAccount> {
    const { username, email, displayName } = checkedIdentity(request);
    const mail = this.policy.mailConfigured;
    const password = mail ? undefined : generatedPassword();
    const user = await this.createRecord({
      provider: 'builtin',
      username,
      email,
      displayName,
      groups: request.groups ?? [],
      roleOverride: request.roleOverride ?? null,
      // With mail the account has no password until the user chooses one through the link.
      passwordHash:
        password === undefined ? null : await this.queue.run(() => hashPassword(password)),
      emailVerified: !mail,
    });
    if (password !== undefined)
      return { user, initialPassword: password, setPasswordMailSent: false };
    await this.mailReset(user, now, 'welcome');
    return { user, setPasswordMailSent: true };
  }

  /**
   * An admin sends a user a reset link, at once (no cooldown: the admin asked) and awaited, so a
   * failure to send is the admin's to see. Earlier links of the user stop working.
   */
  async sendResetByAdmin(user: UserRecord, now: number): Promise<void> {
    if (!this.policy.mailConfigured) {
      throw new DashboardError(
        'conflict',
        'no mail can be sent: SVC_SMTP_URL is not set. Reset the password from the machine instead (paddock-dashboard users reset-password)',
      );
    }
    if (user.provider !== 'builtin') {
      throw new DashboardError(
        'invalid_request',
        'only users of the built-in store have a password here',
      );
    }
    if (user.disabled)
      throw new DashboardError('invalid_request', 'the account is disabled: enable it first');
    if (!user.email) throw new DashboardError('invalid_request', 'the user has no e-mail address');
    await this.mailReset(user, now, 'reset');
  }

  /** Always succeeds to the caller; a mail goes out only when an enabled account has the address. */
  forgotPassword(email: unknown, now: number): void {
    const checked = checkEmail(email);
    if (!checked.ok) throw new DashboardError('invalid_request', checked.message);
    // In the background: the answer must not wait for (and so reveal) the token and the mail.
    void this.sendReset(checked.value, now).catch((err: unknown) =>
      this.logger.error({ err }, 'password reset mail failed'),
    );
  }

  private async sendReset(email: string, now: number): Promise<void> {
    const user = await this.store.users.findBuiltinByEmail(email);
    if (!user || user.disabled || !user.email) return;
    if (await this.mailedLately('reset', user.id, now)) return;
    await this.mailReset(user, now, 'reset');
  }

  /** Mails a reset link: as a reset, or as the welcome of an account an admin created. */
  private async mailReset(user: UserRecord, now: number, kind: 'reset' | 'welcome'): Promise<void> {
    if (!user.email) return;
    const token = await this.issueToken('reset', user.id, now, this.policy.resetTokenSeconds);
    const link = `${this.policy.publicOrigin}/reset-password?token=${token}`;
    const within = `within ${Math.round(this.policy.resetTokenSeconds / 60)} minutes`;
    await this.mailer.send(
      kind === 'reset'
        ? {
            to: user.email,
            subject: 'Reset your Paddock password',
            text:
              `Someone asked to reset the password of the Paddock account ${user.username}.\n\n` +
              `To choose a new password, open this link ${within}:\n${link}\n\n` +
              'If it was not you, ignore this mail: your password stays as it is.\n',
            link,
          }
        : {
            to: user.email,
            subject: 'Your Paddock account',
            text:
              `An administrator made you the Paddock account ${user.username}.\n\n` +
              `To choose its password, open this link ${within}:\n${link}\n\n` +
              'When the link has expired, ask for a new one on the sign-in page (Forgot password).\n',
            link,
          },
    );
  }

  async resetPassword(token: unknown, password: unknown, now: number): Promise<UserRecord> {
    // The password is checked first, so that a short one does not use the token up.
    const checked = checkPassword(password, this.policy.minPasswordLength);
    if (!checked.ok) {
      throw new DashboardError(
        checked.tooShort ? 'password_too_short' : 'invalid_request',
        checked.message,
      );
    }
    // Hashed before the token is used up, so that a busy queue (429) leaves the link working.
    const passwordHash = await this.queue.run(() => hashPassword(checked.value));
    const userId = await this.consume('reset', token, now);
    // The mail reached the address: that verifies it too.
    const user = await this.store.users.update(userId, { passwordHash, emailVerified: true });
    if (!user) throw new DashboardError('invalid_token', 'the link is invalid or has expired');
    await this.store.users.bumpSessionEpoch(user.id);
    await this.store.loginFailures.resetAccount(accountKey(user.id, ''));
    return user;
  }

  async verifyEmail(token: unknown, now: number): Promise<UserRecord> {
    const userId = await this.consume('verify', token, now);
    const user = await this.store.users.update(userId, { emailVerified: true });
    if (!user) throw new DashboardError('invalid_token', 'the link is invalid or has expired');
    return user;
  }

  /** A fresh verification mail; always succeeds to the caller, like forgot-password. */
  resendVerification(email: unknown, now: number): void {
    const checked = checkEmail(email);
    if (!checked.ok) throw new DashboardError('invalid_request', checked.message);
    void (async () => {
      const user = await this.store.users.findBuiltinByEmail(checked.value);
      if (!user || user.emailVerified || user.disabled) return;
      if (!(await this.mailedLately('verify', user.id, now)))
        await this.sendVerification(user, now);
    })().catch((err: unknown) => this.logger.error({ err }, 'verification mail failed'));
  }

  private async sendVerification(user: UserRecord, now: number): Promise<void> {
    if (!user.email) return;
    const token = await this.issueToken(
      'verify',
      user.id,
      now,
      this.policy.verificationTokenSeconds,
    );
    const link = `${this.policy.publicOrigin}/verify-email?token=${token}`;
    await this.mailer.send({
      to: user.email,
      subject: 'Confirm your e-mail address for Paddock',
      text:
        `Welcome to Paddock, ${user.username}.\n\n` +
        `Confirm your e-mail address by opening this link within ${Math.round(this.policy.verificationTokenSeconds / 3600)} hours:\n${link}\n`,
      link,
    });
  }

  /** Whether a usable link of that purpose went to the user within MAIL_COOLDOWN_MS. */
  private async mailedLately(purpose: TokenPurpose, userId: string, now: number): Promise<boolean> {
    const newest = await this.store.tokens.newestUsable(purpose, userId, now);
    return newest !== null && now - newest < MAIL_COOLDOWN_MS;
  }

  private async issueToken(
    purpose: TokenPurpose,
    userId: string,
    now: number,
    lifetimeSeconds: number,
  ): Promise<string> {
    // One live token per purpose: a newer mail makes the older link useless.
    await this.store.tokens.revokeForUser(purpose, userId, now);
    const { token, hash } = newToken();
    await this.store.tokens.create({
      purpose,
      hash,
      userId,
      createdAt: now,
      expiresAt: now + lifetimeSeconds * 1000,
    });
    return token;
  }

  private async consume(purpose: TokenPurpose, token: unknown, now: number): Promise<string> {
    if (typeof token !== 'string' || token === '' || token.length > MAX_TOKEN_CHARS) {
      throw new DashboardError('invalid_token', 'the link is invalid or has expired');
    }
    const userId = await this.store.tokens.consume(purpose, tokenHash(token), now);
    if (userId === undefined)
      throw new DashboardError('invalid_token', 'the link is invalid or has expired');
    return userId;
  }

  /**
   * Creates the initial admin when no builtin admin exists. Returns the generated password when
   * none was configured (shown once), or undefined.
   */
  async ensureInitialAdmin(admin: {
    username: string;
    email: string;
    password: string | undefined;
  }): Promise<{ created: boolean; generatedPassword?: string }> {
    if (await this.store.users.hasBuiltinAdmin()) return { created: false };
    const generated = admin.password === undefined ? generatedPassword() : undefined;
    const password = admin.password ?? generated!;
    try {
      await this.store.users.create({
        provider: 'builtin',
        username: admin.username,
        email: admin.email.toLowerCase(),
        displayName: 'Administrator',
        passwordHash: await this.queue.run(() => hashPassword(password)),
        roleOverride: 'admin',
        emailVerified: true,
      });
    } catch (err) {
      if (err instanceof UniqueViolation) {
        this.logger.error(
          { field: err.field },
          `no admin exists and the initial admin's ${err.field} is taken by another account; set SVC_BUILTIN_ADMIN_USERNAME and SVC_BUILTIN_ADMIN_EMAIL to free ones`,
        );
        return { created: false };
      }
      throw err;
    }
    return generated === undefined
      ? { created: true }
      : { created: true, generatedPassword: generated };
  }
}
