import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { useAuth } from '../../auth';
import { TextField } from '../../ui/text-field';
import { builtinErrorSentence } from './messages';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Asks for a new e-mail confirmation link (the answer never says whether the address is known). */
export function ResendVerification({ initialEmail = '' }: { initialEmail?: string }) {
  const { config } = useAuth();
  const [email, setEmail] = useState(initialEmail);
  const [state, setState] = useState<'idle' | 'busy' | 'sent'>('idle');
  const [error, setError] = useState<string | undefined>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!EMAIL.test(email.trim())) {
      setError('Enter the email address of your account.');
      return;
    }
    setError(undefined);
    setState('busy');
    try {
      await api('/api/auth/builtin/resend-verification', {
        method: 'POST',
        body: { email: email.trim() },
        quiet401: true,
      });
      setState('sent');
    } catch (err) {
      setError(builtinErrorSentence(err, config));
      setState('idle');
    }
  };

  if (state === 'sent') {
    return (
      <p className="notice" role="status">
        If {email.trim()} belongs to an account that still needs confirming, a new link is on its
        way. Links sent earlier no longer work.
      </p>
    );
  }
  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-label="New confirmation link">
      <TextField
        label="Email address for a new link"
        type="email"
        autoComplete="email"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={error}
      />
      <button type="submit" className="button" disabled={state === 'busy'}>
        Send a new confirmation link
      </button>
    </form>
  );
}
