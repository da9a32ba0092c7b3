import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../api';
import { useAuth } from '../../auth';
import type { AuthConfig } from '../../types';
import { Loading } from '../../ui/states';
import { AuthCard } from './auth-card';
import { builtinErrorSentence } from './messages';
import { NotBuiltin } from './not-builtin';
import { ResendVerification } from './resend-verification';

type Outcome = { ok: true } | { ok: false; text: string };

/**
 * Tokens are single-use: one request per token for the life of the page, however many times the
 * page mounts (React's development double mount, a re-render).
 */
const verifications = new Map<string, Promise<Outcome>>();

function verifyOnce(token: string, config: AuthConfig): Promise<Outcome> {
  let outcome = verifications.get(token);
  if (outcome === undefined) {
    outcome = api('/api/auth/builtin/verify-email', {
      method: 'POST',
      body: { token },
      quiet401: true,
    }).then(
      (): Outcome => ({ ok: true }),
      (err: unknown): Outcome => ({ ok: false, text: builtinErrorSentence(err, config) }),
    );
    verifications.set(token, outcome);
  }
  return outcome;
}

/** /verify-email?token=…: the page the confirmation mail links to; confirms at once. */
export function VerifyEmailPage() {
  const { config } = useAuth();
  const [params] = useSearchParams();
  const token = params.get('token');
  if (config.mode !== 'builtin') return <NotBuiltin title="Confirm your email address" />;
  if (token === null || token === '') {
    return (
      <AuthCard title="Confirm your email address">
        <div className="notice error" role="alert">
          This link is incomplete: it carries no confirmation code. Open the link from the mail
          again.
        </div>
        <ResendVerification />
      </AuthCard>
    );
  }
  return <Verification token={token} config={config} />;
}

function Verification({ token, config }: { token: string; config: AuthConfig }) {
  const [outcome, setOutcome] = useState<{ token: string; outcome: Outcome } | null>(null);

  useEffect(() => {
    let current = true;
    void verifyOnce(token, config).then((result) => {
      if (current) setOutcome({ token, outcome: result });
    });
    return () => {
      current = false;
    };
  }, [token, config]);

  const result = outcome?.token === token ? outcome.outcome : null;
  if (result === null) {
    return (
      <AuthCard title="Confirm your email address">
        <Loading label="Confirming your email address" />
      </AuthCard>
    );
  }
  if (result.ok) {
    return (
      <AuthCard title="Email address confirmed" step="ok">
        <p role="status">Your email address is confirmed. You can sign in now.</p>
        <p>
          <Link className="button primary" to="/login">
            Sign in
          </Link>
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Email address not confirmed" step="failed">
      <div className="notice error" role="alert">
        {result.text} If you already confirmed your address, just sign in; otherwise ask for a new
        link.
      </div>
      <ResendVerification />
      <ul className="auth-links">
        <li>
          <Link to="/login">Go to sign-in</Link>
        </li>
      </ul>
    </AuthCard>
  );
}
