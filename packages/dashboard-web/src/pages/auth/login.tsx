import { useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { api, ApiError } from '../../api';
import { safeReturnTo, useAuth } from '../../auth';
import { useErrorFocus } from '../../ui/focus';
import { TextField } from '../../ui/text-field';
import { AuthCard } from './auth-card';
import { builtinErrorSentence, oauthErrorSentence, providerName } from './messages';
import { ResendVerification } from './resend-verification';

/**
 * /login?returnTo=<path>&expired=1&error=<code>: signs in the way the dashboard is set up — a
 * form for built-in accounts, a button to the identity provider for OAuth — and goes on to
 * returnTo. Behind a proxy or without sign-in the user is already known and goes straight on.
 */
export function LoginPage() {
  const { config, user } = useAuth();
  const [params] = useSearchParams();
  const returnTo = safeReturnTo(params.get('returnTo'));
  const expired = params.get('expired') === '1';
  const callbackError = params.get('error');

  if (user !== null) return <Navigate to={returnTo} replace />;
  if (config.mode === 'builtin') {
    return <BuiltinSignIn returnTo={returnTo} expired={expired} />;
  }
  if (config.mode === 'oauth') {
    return <OAuthSignIn returnTo={returnTo} expired={expired} callbackError={callbackError} />;
  }
  return <NotIdentified returnTo={returnTo} proxy={config.mode === 'proxy'} />;
}

function ExpiredNotice() {
  return (
    <p className="notice warn" role="status">
      Your session ended; sign in again.
    </p>
  );
}

function BuiltinSignIn({ returnTo, expired }: { returnTo: string; expired: boolean }) {
  const { config, refresh } = useAuth();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ username?: string; password?: string }>({});
  const [failure, setFailure] = useState<{ code: string; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const usernameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const alertRef = useErrorFocus(failure);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const errors: typeof fieldErrors = {};
    if (username.trim() === '') errors.username = 'Enter your username or email address.';
    if (password === '') errors.password = 'Enter your password.';
    setFieldErrors(errors);
    if (errors.username) return usernameRef.current?.focus();
    if (errors.password) return passwordRef.current?.focus();
    setBusy(true);
    setFailure(null);
    try {
      await api('/api/auth/builtin/login', {
        method: 'POST',
        body: { username: username.trim(), password },
        quiet401: true,
      });
      // Signed in: the page re-renders with the user and goes on to returnTo.
      if ((await refresh()) === null) {
        setFailure({
          code: 'no_session',
          text: 'You were signed in, but your browser did not keep the session. The session cookie needs a secure connection: open the dashboard over HTTPS (or on localhost), and allow its cookies.',
        });
      }
    } catch (err) {
      setPassword('');
      setFailure({
        code: err instanceof ApiError ? err.code : 'error',
        text: builtinErrorSentence(err, config),
      });
    } finally {
      setBusy(false);
    }
  };

  const signupLink = `/signup${returnTo === '/' ? '' : `?returnTo=${encodeURIComponent(returnTo)}`}`;
  return (
    <AuthCard title="Sign in to Paddock" focusHeading={failure === null}>
      {expired && <ExpiredNotice />}
      <form noValidate onSubmit={(event) => void submit(event)} aria-label="Sign in">
        <TextField
          ref={usernameRef}
          label="Username or email"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          value={username}
          onChange={(event) => setUsername(event.target.value)}
          error={fieldErrors.username}
        />
        <TextField
          ref={passwordRef}
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={fieldErrors.password}
        />
        {failure && (
          <div ref={alertRef} className="notice error" role="alert" tabIndex={-1}>
            {failure.text}
          </div>
        )}
        <button type="submit" className="button primary wide" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      {failure?.code === 'email_not_verified' && (
        <ResendVerification initialEmail={username.includes('@') ? username.trim() : ''} />
      )}
      <ul className="auth-links">
        <li>
          <Link to="/forgot-password">Forgot your password?</Link>
        </li>
        {config.signupAllowed && (
          <li>
            New to Paddock? <Link to={signupLink}>Create an account</Link>
          </li>
        )}
      </ul>
    </AuthCard>
  );
}

function OAuthSignIn({
  returnTo,
  expired,
  callbackError,
}: {
  returnTo: string;
  expired: boolean;
  callbackError: string | null;
}) {
  const { config } = useAuth();
  const provider = providerName(config.provider);
  const alertRef = useErrorFocus(callbackError);
  const [leaving, setLeaving] = useState(false);
  return (
    <AuthCard title="Sign in to Paddock" focusHeading={callbackError === null}>
      {expired && <ExpiredNotice />}
      {callbackError !== null && (
        <div ref={alertRef} className="notice error" role="alert" tabIndex={-1}>
          {oauthErrorSentence(callbackError)}
        </div>
      )}
      <p>
        {provider === 'single sign-on'
          ? 'This dashboard signs you in through your organisation’s identity provider.'
          : `This dashboard signs you in with your ${provider} account.`}
      </p>
      <button
        type="button"
        className="button primary wide"
        disabled={leaving}
        onClick={() => {
          setLeaving(true);
          // A full page load: the dashboard redirects to the provider and back.
          window.location.assign(`/api/auth/login?returnTo=${encodeURIComponent(returnTo)}`);
        }}
      >
        Sign in with {provider}
      </button>
    </AuthCard>
  );
}

/** Proxy and anonymous modes: nobody signs in here; the request itself says who it is. */
function NotIdentified({ returnTo, proxy }: { returnTo: string; proxy: boolean }) {
  const alertRef = useErrorFocus(true);
  return (
    <AuthCard title="You are not signed in" focusHeading={false}>
      <div ref={alertRef} className="notice error" role="alert" tabIndex={-1}>
        {proxy
          ? 'The sign-in proxy in front of Paddock did not identify you, or you do not have access to this dashboard.'
          : 'The dashboard could not tell who you are.'}
      </div>
      <p>
        {proxy
          ? 'Try loading the page again; your organisation’s sign-in page may ask you to sign in first. If it keeps happening, ask your administrator to check the proxy.'
          : 'Try loading the page again. If it keeps happening, ask your administrator.'}
      </p>
      <button
        type="button"
        className="button primary"
        onClick={() => window.location.assign(returnTo)}
      >
        Try again
      </button>
    </AuthCard>
  );
}
