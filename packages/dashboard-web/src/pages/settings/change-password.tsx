import { useRef, useState, type FormEvent } from 'react';
import { api, ApiError, UNAUTHORIZED_EVENT } from '../../api';
import { useAuth } from '../../auth';
import { useErrorFocus, useHeadingFocus } from '../../ui/focus';
import { TextField } from '../../ui/text-field';
import { builtinErrorSentence } from '../auth/messages';
import './settings.css';

/** Changes the caller's own password; ends their other sessions, keeps this one and the API keys. */
export const CHANGE_PASSWORD_PATH = '/api/auth/builtin/change-password';

/** /settings/password: a Paddock account changes its password. */
export function ChangePasswordPage() {
  const { user, config } = useAuth();
  const heading = useHeadingFocus();
  const own = config.mode === 'builtin' && user?.provider === 'builtin';
  return (
    <section className="page" aria-labelledby="password-title">
      <header>
        <h1 id="password-title" ref={heading} tabIndex={-1}>
          Change password
        </h1>
      </header>
      {own ? (
        <ChangePasswordForm username={user.username} />
      ) : (
        <div className="notice">
          This dashboard does not keep your password: change it where you sign in (your
          organisation’s sign-in or identity provider).
        </div>
      )}
    </section>
  );
}

type Field = 'current' | 'next' | 'confirm';

function ChangePasswordForm({ username }: { username: string }) {
  const { config } = useAuth();
  const min = config.minPasswordLength;
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const currentRef = useRef<HTMLInputElement>(null);
  const nextRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLInputElement>(null);
  const failureRef = useErrorFocus(failure);

  const fieldError = (field: Field, text: string) => {
    setErrors({ [field]: text });
    const refs = { current: currentRef, next: nextRef, confirm: confirmRef };
    refs[field].current?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setDone(false);
    if (current === '') return fieldError('current', 'Enter your current password.');
    if ([...next].length < min) {
      return fieldError('next', `The new password must be at least ${min} characters long.`);
    }
    if (confirm !== next) return fieldError('confirm', 'The two new passwords are not the same.');
    setErrors({});
    setBusy(true);
    try {
      await api(CHANGE_PASSWORD_PATH, {
        method: 'POST',
        body: { currentPassword: current, newPassword: next },
        // A wrong current password answers 401 too: only an ended session signs out.
        quiet401: true,
      });
      setCurrent('');
      setNext('');
      setConfirm('');
      setDone(true);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'unauthorized') {
        window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
      } else if (err instanceof ApiError && err.code === 'invalid_credentials') {
        fieldError('current', 'This is not your current password.');
      } else if (err instanceof ApiError && err.code === 'password_too_short') {
        fieldError('next', builtinErrorSentence(err, config));
      } else {
        setFailure(builtinErrorSentence(err, config));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="card password-form"
      noValidate
      onSubmit={(event) => void submit(event)}
      aria-label="Change password"
    >
      {/* For password managers: the account whose password this is. */}
      <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
      <TextField
        ref={currentRef}
        label="Current password"
        name="current-password"
        type="password"
        autoComplete="current-password"
        required
        value={current}
        onChange={(event) => setCurrent(event.target.value)}
        error={errors.current}
      />
      <TextField
        ref={nextRef}
        label="New password"
        name="new-password"
        type="password"
        autoComplete="new-password"
        required
        minLength={min}
        value={next}
        onChange={(event) => setNext(event.target.value)}
        error={errors.next}
        hint={`At least ${min} characters.`}
      />
      <TextField
        ref={confirmRef}
        label="Confirm new password"
        name="confirm-password"
        type="password"
        autoComplete="new-password"
        required
        value={confirm}
        onChange={(event) => setConfirm(event.target.value)}
        error={errors.confirm}
      />
      {failure !== null && (
        <div ref={failureRef} className="notice error" role="alert" tabIndex={-1}>
          {failure}
        </div>
      )}
      <p className="page-status" role="status">
        {done &&
          'Your password is changed. Your sessions in other browsers have ended; this one goes on, and your API keys keep working.'}
      </p>
      <button type="submit" className="button primary" disabled={busy}>
        {busy ? 'Changing…' : 'Change password'}
      </button>
    </form>
  );
}
