/**
 * A boolean query parameter (watch, allowWatchBookmarks, sendInitialEvents, force, follow, ...) as
 * kube-apiserver converts one from the URL: undefined when absent; false when its first value is
 * `0` or `false` in any letter case; true for anything else, the empty value included. Clients
 * rely on the leniency: the Python client sends `watch=True`. No value is refused.
 */
export function queryBoolean(query: URLSearchParams, name: string): boolean | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  return !(value === '0' || value.toLowerCase() === 'false');
}

/** The parameter as a plain flag: absent counts as false. */
export function queryFlag(query: URLSearchParams, name: string): boolean {
  return queryBoolean(query, name) ?? false;
}
