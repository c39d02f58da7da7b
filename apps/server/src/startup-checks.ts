import { S3ServiceException } from '@aws-sdk/client-s3';
import pg from 'pg';
import type { Config } from './config.js';
import { StartupError } from './config.js';
import type { S3Storage } from './modules/storage/s3-storage.js';

/*
 * What a start checks before it trusts the outside parts, so that a setting pointing at nothing
 * stops the start within seconds with one line naming the setting and what to do, instead of a
 * driver's stack after its retries.
 */

/** How long a start waits for PostgreSQL or the object store to answer. */
export const STARTUP_CHECK_TIMEOUT_MS = 10_000;

/** Error codes of a connection that never reached a server. */
const REFUSED = new Set(['ECONNREFUSED']);
const UNKNOWN_HOST = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME']);
const UNREACHABLE = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'ECONNRESET', 'EPIPE']);

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  // The AWS SDK and pg wrap the socket's error (AggregateError for several addresses).
  const inner = (error as { errors?: unknown[]; cause?: unknown } | null) ?? {};
  if (Array.isArray(inner.errors) && inner.errors.length > 0) return codeOf(inner.errors[0]);
  if (inner.cause && inner.cause !== error) return codeOf(inner.cause);
  return undefined;
}

function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.trim() || codeOf(error) || 'unknown error';
}

/** host:port and database of a PostgreSQL URL, never its password. */
function describeDatabaseUrl(url: string): { where: string; database: string; user: string } {
  const parsed = new URL(url);
  const host = decodeURIComponent(parsed.hostname) || 'localhost';
  return {
    where: `${host}:${parsed.port || '5432'}`,
    database: decodeURIComponent(parsed.pathname.replace(/^\//, '')) || '(the user’s own)',
    user: decodeURIComponent(parsed.username) || '(the current user)',
  };
}

/** The line a failed first connection to DATABASE_URL deserves. */
export function databaseStartupError(url: string, error: unknown): StartupError {
  const { where, database, user } = describeDatabaseUrl(url);
  const code = codeOf(error);
  const embedded = 'or unset DATABASE_URL to use the embedded database in DATA_DIR';
  let line: string;
  if (code && REFUSED.has(code)) {
    line = `DATABASE_URL: nothing accepts connections at ${where} (connection refused); start PostgreSQL there, or correct the host and port in DATABASE_URL, ${embedded}.`;
  } else if (code && UNKNOWN_HOST.has(code)) {
    line = `DATABASE_URL: the host name in ${where} is not known (${code}); correct the host in DATABASE_URL, ${embedded}.`;
  } else if (
    (code && UNREACHABLE.has(code)) ||
    /timeout|timed out|terminated unexpectedly/i.test(messageOf(error))
  ) {
    line = `DATABASE_URL: PostgreSQL at ${where} did not answer within ${STARTUP_CHECK_TIMEOUT_MS / 1000} s (${code ?? messageOf(error)}); check that it runs and that this machine may reach it, or correct DATABASE_URL.`;
  } else if (code === '28P01' || code === '28000') {
    line = `DATABASE_URL: PostgreSQL at ${where} refused the user ${user} (${messageOf(error)}); correct the user and password in DATABASE_URL.`;
  } else if (code === '3D000') {
    line = `DATABASE_URL: PostgreSQL at ${where} has no database ${database}; create it (createdb ${database}) or correct the database name in DATABASE_URL.`;
  } else {
    line = `DATABASE_URL: cannot open the database at ${where}: ${messageOf(error)}; check DATABASE_URL.`;
  }
  return new StartupError('DATABASE_URL', line, { cause: error });
}

/**
 * One connection to DATABASE_URL and `select 1`, within STARTUP_CHECK_TIMEOUT_MS; throws a
 * StartupError naming DATABASE_URL when PostgreSQL refuses, does not answer or rejects the login.
 */
export async function checkDatabaseUrl(
  url: string,
  timeoutMs = STARTUP_CHECK_TIMEOUT_MS,
): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  // An error after the connect (the server going away meanwhile) must not crash the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    throw databaseStartupError(url, error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The line a failed first request to the S3 object store deserves, or undefined (go on). */
export function objectStoreStartupError(
  s3: Config['storage']['s3'],
  error: unknown,
): StartupError | undefined {
  const where = s3.endpoint ?? `AWS S3 in ${s3.region}`;
  const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
  const name = (error as { name?: unknown } | null)?.name;
  if (status === 403) return undefined; // it answers; these keys may only lack s3:ListBucket
  if (status === 404) {
    return new StartupError(
      'S3_BUCKET',
      `S3_BUCKET: ${where} has no bucket ${s3.bucket}; create it, or correct S3_BUCKET (and S3_ENDPOINT).`,
      { cause: error },
    );
  }
  if (status === 301 || name === 'PermanentRedirect') {
    return new StartupError(
      'S3_REGION',
      `S3_REGION: the bucket ${s3.bucket} is not in ${s3.region}; set S3_REGION to the bucket’s region.`,
      { cause: error },
    );
  }
  if (name === 'CredentialsProviderError') {
    return new StartupError(
      'S3_ACCESS_KEY_ID',
      `S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: no credentials for the object store (${messageOf(error)}); set both, or give this machine an AWS role.`,
      { cause: error },
    );
  }
  const code = codeOf(error);
  const setting = s3.endpoint ? 'S3_ENDPOINT' : 'S3_REGION';
  const fix = s3.endpoint
    ? 'start the object store there, or correct S3_ENDPOINT'
    : 'check this machine’s network, or set S3_ENDPOINT to your S3-compatible store';
  let what: string;
  if (code && REFUSED.has(code)) what = 'refused the connection';
  else if (code && UNKNOWN_HOST.has(code)) what = `has a host name that is not known (${code})`;
  else if (name === 'AbortError' || name === 'TimeoutError' || (code && UNREACHABLE.has(code))) {
    what = `did not answer within ${STARTUP_CHECK_TIMEOUT_MS / 1000} s${code ? ` (${code})` : ''}`;
  } else if (status !== undefined) what = `answered HTTP ${status} (${messageOf(error)})`;
  else what = `cannot be used (${messageOf(error)})`;
  return new StartupError(setting, `${setting}: the object store ${where} ${what}; ${fix}.`, {
    cause: error,
  });
}

/**
 * The bucket answers (HEAD bucket) within STARTUP_CHECK_TIMEOUT_MS; throws a StartupError naming
 * the setting to fix otherwise. A 403 passes: the store answered, and an access policy may allow
 * objects without allowing the bucket's HEAD.
 */
export async function checkObjectStore(
  storage: S3Storage,
  s3: Config['storage']['s3'],
  timeoutMs = STARTUP_CHECK_TIMEOUT_MS,
): Promise<void> {
  try {
    await storage.ping({ abortSignal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const problem = objectStoreStartupError(s3, error);
    if (problem) throw problem;
  }
}
