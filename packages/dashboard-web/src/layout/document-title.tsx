import { useEffect, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';
import { pageTitle, type TitleNames } from '../page-title';

/**
 * The names pages give the title (useTitleNames), kept outside React's tree so that the one
 * DocumentTitle element needs no place around the routes.
 */
let names: TitleNames = {};
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
function setNames(next: TitleNames): void {
  if (next.workspace === names.workspace) return;
  names = next;
  for (const listener of listeners) listener();
}

/**
 * Keeps document.title as pageTitle() decides from the address and the names pages give: the
 * one place the browser tab's title is set. Rendered once, beside the routes.
 */
export function DocumentTitle() {
  const { pathname, search } = useLocation();
  const given = useSyncExternalStore(subscribe, () => names);
  const title = pageTitle({ pathname, search }, given);
  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}

/** Gives the title the names this page knows (a workspace's display name), while it shows. */
export function useTitleNames({ workspace }: TitleNames): void {
  useEffect(() => {
    setNames({ workspace });
    return () => setNames({});
  }, [workspace]);
}
