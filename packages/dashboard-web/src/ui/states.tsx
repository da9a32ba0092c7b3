import type { ReactNode } from 'react';
import { ApiError } from '../api';

/** Shown while something loads: announced to screen readers. */
export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="state state-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}…</span>
    </div>
  );
}

/** A failure, in words a person can act on. */
export function ErrorState({
  error,
  title = 'Something went wrong',
  retry,
}: {
  error: unknown;
  title?: string;
  retry?: () => void;
}) {
  const message =
    error instanceof ApiError || error instanceof Error ? error.message : String(error);
  return (
    <div className="state state-error" role="alert">
      <strong>{title}</strong>
      <p>{message}</p>
      {retry && (
        <button type="button" className="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** Nothing to show yet, and what to do about it. */
export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state state-empty">
      <strong>{title}</strong>
      {children && <div>{children}</div>}
    </div>
  );
}
