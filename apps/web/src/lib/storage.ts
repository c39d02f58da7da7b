import type { User } from '@flashbooth/contracts';

/** Spec: local storage key `user` holds the signed-in user. */
export const USER_STORAGE_KEY = 'user';
/** Spec: a session storage key holds the redirect-after-login path. */
export const REDIRECT_STORAGE_KEY = 'redirectAfterLogin';

export function readStoredUser(): User | null {
  try {
    const raw = localStorage.getItem(USER_STORAGE_KEY);
    return raw ? (JSON.parse(raw) as User) : null;
  } catch {
    return null;
  }
}

export function writeStoredUser(user: User | null): void {
  if (user) localStorage.setItem(USER_STORAGE_KEY, JSON.stringify(user));
  else localStorage.removeItem(USER_STORAGE_KEY);
}

export function rememberRedirect(path: string): void {
  setSessionValue(REDIRECT_STORAGE_KEY, path);
}

/**
 * The stored redirect-after-login path without forgetting it (only a same-site path): a sign-in
 * sends it along, so the SMS's sign-in link returns there even when it opens in another tab.
 */
export function peekRedirect(): string | null {
  const value = sessionValue(REDIRECT_STORAGE_KEY);
  return value && value.startsWith('/') && !value.startsWith('//') ? value : null;
}

/** Returns and forgets the stored redirect-after-login path. */
export function takeRedirect(): string | null {
  const value = sessionValue(REDIRECT_STORAGE_KEY);
  removeSessionValue(REDIRECT_STORAGE_KEY);
  // Only same-site paths: never follow a stored absolute URL.
  return value && value.startsWith('/') && !value.startsWith('//') ? value : null;
}

/**
 * The tab's session storage, tolerant of a browser that refuses it (private mode, full storage,
 * blocked cookies): a value kept here is a convenience for a reloaded tab, never the only record.
 */
export function sessionValue(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Keeps a value in the tab's session storage; false when the browser refused it. */
export function setSessionValue(key: string, value: string): boolean {
  try {
    sessionStorage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

export function removeSessionValue(key: string): void {
  try {
    sessionStorage.removeItem(key);
  } catch {
    // Nothing kept.
  }
}
