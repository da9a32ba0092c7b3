import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api } from '../../api';
import { useAuth } from '../../auth';
import { useErrorFocus } from '../../ui/focus';
import { TextField } from '../../ui/text-field';
import { AuthCard } from './auth-card';
import { builtinErrorSentence } from './messages';
import { NotBuiltin } from './not-builtin';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * /forgot-password: asks for a reset link. The answer is the same whether or not an account has
 * the address, so the page never tells who has an account.
 */
export function ForgotPasswordPage() {
  const { config } = useAuth();
  if (config.mode !== 'builtin') return <NotBuiltin title="Reset your password" />;
  return <ForgotPasswordForm />;
}

function ForgotPasswordForm() {
  const { config } = useAuth();
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const alertRef = useErrorFocus(failure);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const address = email.trim();
    if (!EMAIL.test(address)) {
      setFieldError('Enter the email address of your account, like ada@example.com.');
      inputRef.current?.focus();
      return;
    }
    setFieldError(undefined);
    setBusy(true);
    try {
      await api('/api/auth/builtin/forgot-password', {
        method: 'POST',
        body: { email: address },
        quiet401: true,
      });
      setSentTo(address);
    } catch (err) {
      setFailure(builtinErrorSentence(err, config));
    } finally {
      setBusy(false);
    }
  };

  if (sentTo !== null) {
    return (
      <AuthCard title="Check your mail" step="sent">
        <p role="status">
          If an account exists for <strong>{sentTo}</strong>, a link to reset its password was sent
          to it. The link works for a limited time, and only once.
        </p>
        <p className="muted">Nothing arrived? Look in your spam folder, or ask again.</p>
        <ul className="auth-links">
          <li>
            <Link to="/login">Back to sign-in</Link>
          </li>
        </ul>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Reset your password">
      <p>
        Enter the email address of your account and we will send you a link to choose a new
        password.
      </p>
      <form noValidate onSubmit={(event) => void submit(event)} aria-label="Reset your password">
        <TextField
          ref={inputRef}
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={fieldError}
        />
        {failure !== null && (
          <div ref={alertRef} className="notice error" role="alert" tabIndex={-1}>
            {failure}
          </div>
        )}
        <button type="submit" className="button primary wide" disabled={busy}>
          {busy ? 'Sending…' : 'Send the link'}
        </button>
      </form>
      <ul className="auth-links">
        <li>
          <Link to="/login">Back to sign-in</Link>
        </li>
      </ul>
    </AuthCard>
  );
}
