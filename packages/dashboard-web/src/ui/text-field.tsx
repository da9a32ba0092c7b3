import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import './text-field.css';

/**
 * A labelled input of the shared look: its hint and its error are tied to it with
 * aria-describedby, and an error marks it aria-invalid.
 */
export function TextField({
  label,
  hint,
  error,
  id,
  ref,
  ...input
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  ref?: Ref<HTMLInputElement>;
} & InputHTMLAttributes<HTMLInputElement>) {
  const generated = useId();
  const inputId = id ?? generated;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <input
        {...input}
        id={inputId}
        ref={ref}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy === '' ? undefined : describedBy}
      />
      {error && (
        <span id={errorId} className="field-error">
          {error}
        </span>
      )}
      {hint && (
        <span id={hintId} className="hint">
          {hint}
        </span>
      )}
    </div>
  );
}
