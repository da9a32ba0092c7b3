import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api';
import { useAuth } from '../auth';
import type { AuthConfig, User } from '../types';
import { providerName } from '../pages/auth/messages';
import './user-menu.css';

/** The panel's width in user-menu.css. */
const PANEL_WIDTH = 320;

const ROLE_NAMES: Record<User['role'], string> = {
  admin: 'Admin',
  editor: 'Editor',
  viewer: 'Viewer',
};

function signedInWith(user: User, config: AuthConfig): string {
  switch (user.provider) {
    case 'builtin':
      return 'Paddock account';
    case 'oauth':
      return providerName(config.provider) === 'single sign-on'
        ? 'Single sign-on'
        : providerName(config.provider);
    case 'proxy':
      return 'Your organisation’s sign-in proxy';
    case 'api-key':
      return 'API key';
    case 'anonymous':
      return 'Nobody: no sign-in';
  }
}

/** Ends every session of the user, on every device; the user's API keys stay valid. */
const LOGOUT_EVERYWHERE_PATH = '/api/auth/logout-everywhere';

/**
 * The header's account button: a disclosure that opens the user's name, email, role and provider,
 * links to their API keys and (a Paddock account) Change password, sign-out and sign-out everywhere. Escape (or a click or focus elsewhere) closes it; Escape
 * brings the focus back to the button.
 */
export function UserMenu() {
  const { user, config, signOut } = useAuth();
  const [open, setOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [alignLeft, setAlignLeft] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    // Focus moving out of the menu (Tab past its end) closes it, as a click elsewhere does.
    const onFocus = (event: FocusEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    document.addEventListener('focusin', onFocus);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('focusin', onFocus);
    };
  }, [open]);

  if (user === null) return null;
  const anonymous = user.provider === 'anonymous';
  const name = anonymous
    ? `Anonymous (${user.role})`
    : user.displayName && user.displayName !== ''
      ? user.displayName
      : user.username;
  const initial = anonymous ? '?' : ([...name][0] ?? '?').toUpperCase();
  // Behind a proxy the proxy decides who is signed in: signing out of the dashboard alone does nothing.
  const canSignOut = !anonymous && config.mode !== 'proxy';
  const showKeys = !anonymous && config.apiKeysEnabled;
  const showUsers = user.role === 'admin' && config.mode === 'builtin';
  // Only a Paddock account has a password here (not one signed in with an API key).
  const showPassword = user.provider === 'builtin' && config.mode === 'builtin';

  const close = () => setOpen(false);
  const doSignOut = async (everywhere: boolean) => {
    setSigningOut(true);
    setFailure(null);
    try {
      if (everywhere) await api(LOGOUT_EVERYWHERE_PATH, { method: 'POST', quiet401: true });
      await signOut();
    } catch (err) {
      setFailure(
        err instanceof Error ? err.message : 'Signing out did not work. Please try again.',
      );
      setSigningOut(false);
    }
  };

  return (
    <div className="user-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="button user-menu-button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => {
          // Opens under the button, towards the side with room (the button wraps to the left
          // of the header on a narrow screen).
          const rect = buttonRef.current?.getBoundingClientRect();
          setAlignLeft(rect !== undefined && rect.right < PANEL_WIDTH + 16);
          setOpen((o) => !o);
        }}
      >
        <span className="user-menu-avatar" aria-hidden="true">
          {initial}
        </span>
        <span className="user-menu-name">{name}</span>
        <span className="user-menu-caret" aria-hidden="true">
          ▾
        </span>
      </button>
      <div
        id={panelId}
        className={alignLeft ? 'user-menu-panel align-left' : 'user-menu-panel'}
        hidden={!open}
      >
        {anonymous ? (
          <p className="user-menu-about">
            This dashboard lets everyone in without signing in, with the role{' '}
            <span className="badge">{ROLE_NAMES[user.role]}</span>.
          </p>
        ) : (
          <>
            <p className="user-menu-title">{name}</p>
            <dl className="facts user-menu-facts">
              {name !== user.username && (
                <>
                  <dt>Username</dt>
                  <dd>{user.username}</dd>
                </>
              )}
              <dt>Email</dt>
              <dd>{user.email ?? '—'}</dd>
              <dt>Role</dt>
              <dd>
                <span className="badge">{ROLE_NAMES[user.role]}</span>
              </dd>
              <dt>Signed in with</dt>
              <dd>{signedInWith(user, config)}</dd>
            </dl>
          </>
        )}
        {(showKeys || showUsers || showPassword) && (
          <ul className="user-menu-links">
            {showKeys && (
              <li>
                <Link to="/settings/api-keys" onClick={close}>
                  API keys
                </Link>
              </li>
            )}
            {showPassword && (
              <li>
                <Link to="/settings/password" onClick={close}>
                  Change password
                </Link>
              </li>
            )}
            {showUsers && (
              <li>
                <Link to="/admin/users" onClick={close}>
                  Users
                </Link>
              </li>
            )}
          </ul>
        )}
        {failure !== null && (
          <p className="notice error" role="alert">
            {failure}
          </p>
        )}
        {canSignOut && (
          <div className="user-menu-signout">
            <button
              type="button"
              className="button"
              disabled={signingOut}
              onClick={() => void doSignOut(false)}
            >
              {signingOut ? 'Signing out…' : 'Sign out'}
            </button>
            <button
              type="button"
              className="button"
              disabled={signingOut}
              title="Ends your sessions in every browser and device. Your API keys keep working."
              onClick={() => void doSignOut(true)}
            >
              Sign out everywhere
            </button>
          </div>
        )}
      </div>
    </div>
  );
}
