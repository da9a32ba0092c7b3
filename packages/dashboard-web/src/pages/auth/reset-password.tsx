import { useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, ApiError } from '../../api';
import { useAuth } from '../../auth';
import { useErrorFocus } from '../../ui/focus';
import { TextField } from '../../ui/text-field';
import { AuthCard } from './auth-card';
import { builtinErrorSentence } from './messages';
import { NotBuiltin } from './not-builtin';

/** /reset-password?token=…: the page the reset mail links to; sets a new password. */
export function ResetPasswordPage() {
  const { config } = useAuth();
  const [params] = useSearchParams();
  const token = params.get('token');
  if (config.mode !== 'builtin') return <NotBuiltin title="Choose a new password" />;
  if (token === null || token === '') {
    return (
      <AuthCard title="Choose a new password">
        <div className="notice error" role="alert">
          This link is incomplete: it carries no reset code. Open the link from the mail again, or
          ask for a new one.
        </div>
        <p>
          <Link to="/forgot-password">Ask for a new link</Link>
        </p>
      </AuthCard>
    );
  }
  return <ResetPasswordForm token={token} />;
}

function ResetPasswordForm({ token }: { token: string }) {
  const { config } = useAuth();
  const min = config.minPasswordLength;
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const [failure, setFailure] = useState<{ text: string; tokenUseless: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLInputElement>(null);
  const alertRef = useErrorFocus(failure);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const found: typeof errors = {};
    if ([...password].length < min) {
      found.password = `The password must be at least ${min} characters long.`;
    }
    if (confirm !== password) found.confirm = 'The two passwords are not the same.';
    setErrors(found);
    if (found.password) return passwordRef.current?.focus();
    if (found.confirm) return confirmRef.current?.focus();
    setBusy(true);
    try {
      await api('/api/auth/builtin/reset-password', {
        method: 'POST',
        body: { token, password },
        quiet401: true,
      });
      setDone(true);
    } catch (err) {
      const sentence = builtinErrorSentence(err, config);
      if (err instanceof ApiError && err.code === 'password_too_short') {
        setErrors({ password: sentence });
        passwordRef.current?.focus();
      } else {
        setFailure({
          text: sentence,
          tokenUseless: err instanceof ApiError && err.code === 'invalid_token',
        });
      }
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <AuthCard title="Password changed" step="done">
        <p role="status">
          Your password is changed, and any other session of your account has ended. Sign in with
          the new password.
        </p>
        <p>
          <Link className="button primary" to="/login">
            Sign in
          </Link>
        </p>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Choose a new password" focusHeading={failure === null}>
      <form noValidate onSubmit={(event) => void submit(event)} aria-label="Choose a new password">
        {/* For password managers: which account the new password belongs to is not known here. */}
        <TextField
          ref={passwordRef}
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={min}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={errors.password}
          hint={`At least ${min} characters.`}
        />
        <TextField
          ref={confirmRef}
          label="Confirm new password"
          name="confirm"
          type="password"
          autoComplete="new-password"
          required
          value={confirm}
          onChange={(event) => setConfirm(event.target.value)}
          error={errors.confirm}
        />
        {failure !== null && (
          <div ref={alertRef} className="notice error" role="alert" tabIndex={-1}>
            {failure.text}{' '}
            {failure.tokenUseless && <Link to="/forgot-password">Ask for a new link.</Link>}
          </div>
        )}
        <button type="submit" className="button primary wide" disabled={busy}>
          {busy ? 'Saving…' : 'Set the new password'}
        </button>
      </form>
    </AuthCard>
  );
}
