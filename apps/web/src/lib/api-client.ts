import type { Pool, RefreshResponse } from '@flashbooth/contracts';

/** An API failure: `message` is the server's message when it sent one (spec: read it first). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    /** The whole error body, for refusals that carry more than `message` and `code`. */
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** What a request that never reached the server says (no connection, DNS, a dropped socket). */
export const NETWORK_FAILURE_MESSAGE =
  'Could not reach Flashbooth. Check your connection and try again.';

/**
 * fetch(), with a network failure turned into an ApiError (status 0, code `network`) so every
 * screen shows the same words for it; a cancelled request stays an AbortError.
 */
export async function fetchOrNetworkError(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(NETWORK_FAILURE_MESSAGE, 0, 'network');
  }
}

interface AccessToken {
  pool: Pool;
  token: string;
  expiresAt: number;
}

let accessToken: AccessToken | null = null;
let refreshing: Promise<string> | null = null;
let sessionExpired: (() => void) | null = null;

/** Called when the server refuses the refresh cookie: the session is over (the guard takes over). */
export function onSessionExpired(handler: (() => void) | null): void {
  sessionExpired = handler;
}

export function setAccessToken(pool: Pool, token: string, expiresInSeconds: number): void {
  accessToken = { pool, token, expiresAt: Date.now() + expiresInSeconds * 1000 };
}

export function clearAccessToken(): void {
  accessToken = null;
}

/** The API's error as an ApiError: the body's `message` when it has one, else `fallback`. */
export async function parseError(response: Response, fallback: string): Promise<ApiError> {
  let message = fallback;
  let code = 'error';
  let details: Record<string, unknown> = {};
  try {
    const body = (await response.json()) as { message?: unknown; code?: unknown };
    if (typeof body.message === 'string' && body.message) message = body.message;
    if (typeof body.code === 'string') code = body.code;
    if (typeof body === 'object' && body !== null) details = body;
  } catch {
    // Not JSON: keep the fallback.
  }
  return new ApiError(message, response.status, code, details);
}

/** Trades the HttpOnly refresh cookie for a new access token; concurrent callers share one call. */
export function refreshAccessToken(pool: Pool): Promise<string> {
  refreshing ??= (async () => {
    try {
      const response = await fetchOrNetworkError(`/api/${pool}/auth/refresh`, {
        method: 'POST',
        credentials: 'same-origin',
      });
      if (!response.ok) {
        clearAccessToken();
        const error = await parseError(response, 'Your session has ended. Please sign in again.');
        if (response.status === 401) sessionExpired?.();
        throw error;
      }
      const body = (await response.json()) as RefreshResponse;
      setAccessToken(pool, body.access_token, body.expires_in);
      return body.access_token;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

async function tokenFor(pool: Pool): Promise<string> {
  // Renew a little early so a request never leaves with a token about to lapse.
  if (accessToken && accessToken.pool === pool && accessToken.expiresAt - 15_000 > Date.now()) {
    return accessToken.token;
  }
  return refreshAccessToken(pool);
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  /** Send the bearer token (default true). */
  auth?: boolean;
  /** Message when the server sends none. */
  fallbackMessage?: string;
  signal?: AbortSignal;
}

function buildUrl(pool: Pool, path: string, query: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const qs = params.toString();
  return `/api/${pool}/${path}${qs ? `?${qs}` : ''}`;
}

/**
 * Sends the request with the pool's token; after a 401, renews the token once and sends it again.
 * The raw response, for callers that read something other than JSON (lib/api-download.ts).
 */
export async function authorizedFetch(
  pool: Pool,
  path: string,
  options: RequestOptions,
  accept: string,
): Promise<Response> {
  const { method = 'GET', body, query, auth = true } = options;
  const send = async (token: string | null) => {
    const headers: Record<string, string> = { Accept: accept };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;
    return fetchOrNetworkError(buildUrl(pool, path, query), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  };
  let response = await send(auth ? await tokenFor(pool) : null);
  if (auth && response.status === 401) {
    response = await send(await refreshAccessToken(pool));
  }
  return response;
}

/**
 * The one API client: attaches the token, reads `message` from errors, refreshes once on 401, and
 * fails with an ApiError whatever went wrong (NETWORK_FAILURE_MESSAGE when nothing answered).
 */
export async function apiRequest<T>(
  pool: Pool,
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  const response = await authorizedFetch(pool, path, options, 'application/json');
  if (!response.ok) {
    throw await parseError(response, options.fallbackMessage ?? 'Something went wrong.');
  }
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}
