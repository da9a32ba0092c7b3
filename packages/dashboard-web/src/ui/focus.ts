import { useEffect, useRef } from 'react';

/**
 * A ref for the heading of a page (give it tabIndex={-1}): it takes the focus when the page opens,
 * so that a screen reader announces the new page and the next Tab starts from there. A change of
 * `key` (a new step of the same page) moves the focus there again.
 */
export function useHeadingFocus<T extends HTMLElement = HTMLHeadingElement>(key?: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [key]);
  return ref;
}

/**
 * A ref for an error message (give it tabIndex={-1} and role="alert"): it takes the focus each time
 * `error` becomes something, so that the person hears and sees what went wrong.
 */
export function useErrorFocus<T extends HTMLElement = HTMLDivElement>(error: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (error !== null && error !== undefined) ref.current?.focus();
  }, [error]);
  return ref;
}
