import { useCallback, useEffect, useState } from 'react';
import { api } from '../api';

export interface Loaded<T> {
  /** The last answer (kept while a reload is under way). */
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

interface Outcome<T> {
  key: string | null;
  data?: T;
  error?: unknown;
}

/** GETs a path (again when it changes, or on reload), aborting a request that is no longer wanted. */
export function useApi<T>(path: string | null): Loaded<T> {
  const [round, setRound] = useState(0);
  const [outcome, setOutcome] = useState<Outcome<T>>({ key: null });
  const reload = useCallback(() => setRound((r) => r + 1), []);
  const key = path === null ? null : `${round}:${path}`;

  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    const requested = `${round}:${path}`;
    api<T>(path, { signal: controller.signal })
      .then((data) => setOutcome({ key: requested, data }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) {
          setOutcome((last) => ({ key: requested, data: last.data, error }));
        }
      });
    return () => controller.abort();
  }, [path, round]);

  return {
    data: outcome.data,
    error: outcome.key === key ? outcome.error : undefined,
    loading: key !== null && outcome.key !== key,
    reload,
  };
}
