import { Link } from 'react-router';
import { AuthCard } from './auth-card';

/** The account pages (sign-up, passwords, e-mail) when Paddock does not keep the accounts itself. */
export function NotBuiltin({ title }: { title: string }) {
  return (
    <AuthCard title={title}>
      <p>
        Accounts of this dashboard are not kept by Paddock: your organisation’s sign-in decides who
        you are, and its own pages handle passwords and email addresses.
      </p>
      <p>
        <Link to="/login">Go to sign-in</Link>
      </p>
    </AuthCard>
  );
}
