import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <section className="page">
      <h1>Page not found</h1>
      <p>
        There is nothing here. <Link to="/">Go to your workspaces</Link>.
      </p>
    </section>
  );
}
