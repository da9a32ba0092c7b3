import { useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { api, ApiError } from '../../api';
import { safeReturnTo, useAuth } from '../../auth';
import { useErrorFocus } from '../../ui/focus';
import { TextField } from '../../ui/text-field';
import { AuthCard } from './auth-card';
import { builtinErrorSentence } from './messages';
import { NotBuiltin } from './not-builtin';

type FieldName = 'username' | 'email' | 'displayName' | 'password' | 'confirm';
type FieldErrors = Partial<Record<FieldName, string>>;

const USERNAME = /^[\p{L}\p{N}][\p{L}\p{N}\p{M}._-]*$/u;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ORDER: FieldName[] = ['username', 'email', 'displayName', 'password', 'confirm'];

/** The field an API error is about: its code, or the field its message starts with. */
function fieldOfError(err: unknown): FieldName | undefined {
  if (!(err instanceof ApiError)) return undefined;
  if (err.code === 'username_exists') return 'username';
  if (err.code === 'email_exists') return 'email';
  if (err.code === 'password_too_short') return 'password';
  if (err.code === 'invalid_request') {
    return ORDER.find((field) => err.message.startsWith(`${field} `));
  }
  return undefined;
}

/** /signup: a new built-in account; then either "check your mail" or straight in. */
export function SignUpPage() {
  const { config, user } = useAuth();
  const [params] = useSearchParams();
  const returnTo = safeReturnTo(params.get('returnTo'));
  if (config.mode !== 'builtin') return <NotBuiltin title="Create an account" />;
  if (user !== null) return <Navigate to={returnTo} replace />;
  if (!config.signupAllowed) {
    return (
      <AuthCard title="Create an account">
        <p>
          Sign-up is closed on this dashboard. Ask an administrator to create an account for you.
        </p>
        <p>
          <Link to="/login">Go to sign-in</Link>
        </p>
      </AuthCard>
    );
  }
  return <SignUpForm returnTo={returnTo} />;
}

function SignUpForm({ returnTo }: { returnTo: string }) {
  const { config, refresh } = useAuth();
  const min = config.minPasswordLength;
  const [values, setValues] = useState<Record<FieldName, string>>({
    username: '',
    email: '',
    displayName: '',
    password: '',
    confirm: '',
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const alertRef = useErrorFocus(failure);

  const set = (field: FieldName) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));

  const check = (): FieldErrors => {
    const found: FieldErrors = {};
    const username = values.username.trim();
    const length = [...username].length;
    if (length < 2 || length > 64) found.username = 'Choose a username of 2 to 64 characters.';
    else if (!USERNAME.test(username)) {
      found.username =
        'Use letters, digits, ".", "_" and "-" only, starting with a letter or a digit.';
    }
    if (!EMAIL.test(values.email.trim()))
      found.email = 'Enter an email address, like ada@example.com.';
    if ([...values.password].length < min) {
      found.password = `The password must be at least ${min} characters long.`;
    }
    if (values.confirm !== values.password) found.confirm = 'The two passwords are not the same.';
    return found;
  };

  const showErrors = (found: FieldErrors) => {
    setErrors(found);
    const first = ORDER.find((field) => found[field] !== undefined);
    if (first === undefined) return;
    const input = formRef.current?.elements.namedItem(first);
    if (input instanceof HTMLInputElement) input.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const found = check();
    if (Object.keys(found).length > 0) {
      showErrors(found);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const email = values.email.trim();
      const answer = await api<{ verificationRequired: boolean }>('/api/auth/builtin/signup', {
        method: 'POST',
        body: {
          username: values.username.trim(),
          email,
          password: values.password,
          displayName: values.displayName.trim() === '' ? undefined : values.displayName.trim(),
        },
        quiet401: true,
      });
      if (answer.verificationRequired) setSentTo(email);
      // Without a confirmation step the account is signed in at once: on to returnTo.
      else await refresh();
    } catch (err) {
      const sentence = builtinErrorSentence(err, config);
      const field = fieldOfError(err);
      if (field !== undefined) showErrors({ [field]: sentence });
      else setFailure(sentence);
    } finally {
      setBusy(false);
    }
  };

  if (sentTo !== null) {
    const loginLink = `/login${returnTo === '/' ? '' : `?returnTo=${encodeURIComponent(returnTo)}`}`;
    return (
      <AuthCard title="Check your mail" step="sent">
        <p role="status">
          Your account is created. We sent a link to <strong>{sentTo}</strong>: open it to confirm
          your email address, then sign in.
        </p>
        <p className="muted">
          Nothing arrived? Look in your spam folder, or ask for a new link from the sign-in page.
        </p>
        <p>
          <Link to={loginLink}>Go to sign-in</Link>
        </p>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Create an account">
      <form
        ref={formRef}
        noValidate
        onSubmit={(event) => void submit(event)}
        aria-label="Create an account"
      >
        <TextField
          label="Username"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          maxLength={64}
          value={values.username}
          onChange={set('username')}
          error={errors.username}
          hint="Letters, digits, “.”, “_” and “-”."
        />
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          value={values.email}
          onChange={set('email')}
          error={errors.email}
        />
        <TextField
          label="Display name (optional)"
          name="displayName"
          autoComplete="name"
          maxLength={128}
          value={values.displayName}
          onChange={set('displayName')}
          error={errors.displayName}
          hint="How the dashboard shows you, like “Ada Lovelace”."
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={min}
          value={values.password}
          onChange={set('password')}
          error={errors.password}
          hint={`At least ${min} characters.`}
        />
        <TextField
          label="Confirm password"
          name="confirm"
          type="password"
          autoComplete="new-password"
          required
          value={values.confirm}
          onChange={set('confirm')}
          error={errors.confirm}
        />
        {failure !== null && (
          <div ref={alertRef} className="notice error" role="alert" tabIndex={-1}>
            {failure}
          </div>
        )}
        <button type="submit" className="button primary wide" disabled={busy}>
          {busy ? 'Creating your account…' : 'Create account'}
        </button>
      </form>
      <ul className="auth-links">
        <li>
          Already have an account? <Link to="/login">Sign in</Link>
        </li>
      </ul>
    </AuthCard>
  );
}
