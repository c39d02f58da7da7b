import type { Pool, User, VerifyResponse } from '@flashbooth/contracts';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import {
  ApiError,
  apiRequest,
  clearAccessToken,
  onSessionExpired,
  refreshAccessToken,
  setAccessToken,
} from './api-client';
import type { AuthState } from './route-guard';
import { readStoredUser, writeStoredUser } from './storage';

export interface SessionValue {
  auth: AuthState;
  user: User | null;
  /** Stores the verified session (OTP verify response) for the given pool. */
  establish: (pool: Pool, response: VerifyResponse) => void;
  /** Replaces the stored user record (after a profile update or reload). */
  updateUser: (user: User) => void;
  /** Ends the session locally and on the server; rejects if the server call failed. */
  signOut: () => Promise<void>;
  /** Forgets the session in this browser only (after the server session was ended elsewhere). */
  clearLocal: () => void;
  /** Ends the just-signed-out state once the person is on a public page (see the route guard). */
  acknowledgeSignOut: () => void;
}

const SessionContext = createContext<SessionValue | null>(null);

/**
 * The auth check of the route guard: renew the access token from the cookie, reload the user.
 * This and signOut call the client directly rather than through the endpoint modules
 * (api/users/get-self, profile's sign-out): those bring React Query's hooks into every page's
 * first download (+6.6 kB gzip measured), and this file is part of it.
 */
async function checkSession(stored: User): Promise<User> {
  await refreshAccessToken(stored.type);
  return apiRequest<User>(stored.type, 'users/self');
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<User | null>(() => readStoredUser());
  const [auth, setAuth] = useState<AuthState>(() =>
    readStoredUser() ? { status: 'checking' } : { status: 'anonymous' },
  );

  useEffect(() => {
    const stored = readStoredUser();
    if (!stored) return;
    let cancelled = false;
    checkSession(stored).then(
      (fresh) => {
        if (cancelled) return;
        writeStoredUser(fresh);
        setUser(fresh);
        setAuth({ status: 'authenticated', userType: fresh.type });
      },
      (error: unknown) => {
        if (cancelled) return;
        if (error instanceof ApiError && error.status === 401) {
          writeStoredUser(null);
          setUser(null);
          setAuth({ status: 'anonymous' });
        } else {
          setAuth({ status: 'error' });
        }
      },
    );
    return () => {
      cancelled = true;
    };
  }, []);

  // A refused refresh cookie ends the session here too, so the guard sends the person to login.
  useEffect(() => {
    onSessionExpired(() => {
      writeStoredUser(null);
      setUser(null);
      setAuth({ status: 'anonymous' });
    });
    return () => onSessionExpired(null);
  }, []);

  const establish = useCallback((pool: Pool, response: VerifyResponse) => {
    setAccessToken(pool, response.access_token, response.expires_in);
    writeStoredUser(response.user);
    setUser(response.user);
    setAuth({ status: 'authenticated', userType: response.user.type });
  }, []);

  const updateUser = useCallback((next: User) => {
    writeStoredUser(next);
    setUser(next);
  }, []);

  const clearLocal = useCallback(() => {
    clearAccessToken();
    writeStoredUser(null);
    setUser(null);
    setAuth({ status: 'anonymous', signedOut: true });
  }, []);

  const acknowledgeSignOut = useCallback(() => setAuth({ status: 'anonymous' }), []);

  const signOut = useCallback(async () => {
    const pool = user?.type ?? readStoredUser()?.type ?? 'regular';
    try {
      await apiRequest(pool, 'auth/sign-out', { method: 'POST', auth: false });
    } finally {
      clearLocal();
    }
  }, [user, clearLocal]);

  const value = useMemo(
    () => ({ auth, user, establish, updateUser, signOut, clearLocal, acknowledgeSignOut }),
    [auth, user, establish, updateUser, signOut, clearLocal, acknowledgeSignOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used inside SessionProvider');
  return value;
}
