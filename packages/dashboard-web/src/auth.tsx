import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useState,
  type ReactNode,
} from 'react';
import { safeReturnPath } from '@paddock/common/return-path';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { api, ApiError, UNAUTHORIZED_EVENT } from './api';
import type { AuthConfig, User } from './types';
import { ErrorState, Loading } from './ui/states';

interface Auth {
  config: AuthConfig;
  /** The signed-in user; null when nobody is. */
  user: User | null;
  /** Reads /api/auth/me again (after signing in or out). */
  refresh: () => Promise<User | null>;
  /** Ends the session, then follows the identity provider's end-session page when there is one. */
  signOut: () => Promise<void>;
}

const AuthContext = createContext<Auth | null>(null);

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (auth === null) throw new Error('useAuth outside AuthProvider');
  return auth;
}

async function readMe(): Promise<User | null> {
  try {
    return (await api<{ user: User }>('/api/auth/me', { quiet401: true })).user;
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) return null;
    throw err;
  }
}

/** The page the user is on, to come back to after signing in. */
export function currentPath(location: { pathname: string; search: string; hash: string }) {
  return `${location.pathname}${location.search}${location.hash}`;
}

/**
 * Where to go after signing in: a path of this site only, never another origin. The dashboard's
 * server makes the same decision with the same function.
 */
export function safeReturnTo(value: string | null): string {
  return safeReturnPath(value);
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [config, setConfig] = useState<AuthConfig | null>(null);
  const [user, setUser] = useState<User | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const navigate = useNavigate();
  const location = useLocation();

  const refresh = useCallback(async () => {
    const me = await readMe();
    setUser(me);
    return me;
  }, []);

  useEffect(() => {
    Promise.all([api<AuthConfig>('/api/auth/config'), readMe()])
      .then(([c, me]) => {
        setConfig(c);
        setUser(me);
      })
      .catch((err: unknown) => setError(err instanceof Error ? err : new Error(String(err))));
  }, []);

  // A session that ends while the page is open: back to sign-in, remembering the page.
  useEffect(() => {
    const onUnauthorized = () => {
      // In the same transition as the router's move to /login: an urgent update would first
      // render the old page signed out, whose RequireAuth would redirect without expired=1.
      startTransition(() => setUser(null));
      if (location.pathname !== '/login') {
        void navigate(`/login?returnTo=${encodeURIComponent(currentPath(location))}&expired=1`);
      }
    };
    window.addEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
    return () => window.removeEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
  }, [location, navigate]);

  const signOut = useCallback(async () => {
    const answer = await api<{ success: boolean; redirectUrl?: string }>('/api/auth/logout', {
      method: 'POST',
      quiet401: true,
    });
    setUser(null);
    if (answer.redirectUrl !== undefined) window.location.assign(answer.redirectUrl);
    else void navigate('/login');
  }, [navigate]);

  if (error !== null) {
    return <ErrorState error={error} title="The dashboard could not start" />;
  }
  if (config === null) return <Loading label="Loading the dashboard" />;
  return (
    <AuthContext.Provider value={{ config, user, refresh, signOut }}>
      {children}
    </AuthContext.Provider>
  );
}

/** Its children only for a signed-in user; others go to sign-in and come back after. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const location = useLocation();
  if (user === null) {
    return <Navigate to={`/login?returnTo=${encodeURIComponent(currentPath(location))}`} replace />;
  }
  return children;
}
