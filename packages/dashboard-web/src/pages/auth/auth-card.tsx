import type { ReactNode } from 'react';
import { useHeadingFocus } from '../../ui/focus';
import './auth.css';

/**
 * The frame of a signed-out page: one centred card with the brand and the page's heading, which
 * takes the focus when the page opens (or when `step` changes) unless `focusHeading` is false
 * (an error present from the start takes it instead).
 */
export function AuthCard({
  title,
  step,
  focusHeading = true,
  children,
}: {
  title: string;
  step?: unknown;
  focusHeading?: boolean;
  children: ReactNode;
}) {
  const heading = useHeadingFocus(focusHeading ? step : null);
  return (
    <main className="auth-page">
      <div className="auth-card">
        <p className="auth-brand">
          <img src="/favicon.svg" alt="" width="28" height="28" />
          <span>Paddock</span>
        </p>
        <h1 ref={focusHeading ? heading : undefined} tabIndex={-1}>
          {title}
        </h1>
        {children}
      </div>
    </main>
  );
}
