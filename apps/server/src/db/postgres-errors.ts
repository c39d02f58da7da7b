/** PostgreSQL errors a request can run into, told apart by SQLSTATE and constraint name. */
const FOREIGN_KEY_VIOLATION = '23503';
const UNIQUE_VIOLATION = '23505';

interface PostgresError {
  code: string;
  constraint: string | undefined;
}

/**
 * The PostgreSQL error behind `error` (node-postgres and PGlite both carry the SQLSTATE `code`
 * and the `constraint` name), looking through the wrappers Drizzle adds (`cause`).
 */
export function postgresErrorOf(error: unknown): PostgresError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const { code, constraint } = current as { code?: unknown; constraint?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      return { code, constraint: typeof constraint === 'string' ? constraint : undefined };
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export function isForeignKeyViolation(error: unknown, constraint: string): boolean {
  const found = postgresErrorOf(error);
  return found?.code === FOREIGN_KEY_VIOLATION && found.constraint === constraint;
}

export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const found = postgresErrorOf(error);
  return found?.code === UNIQUE_VIOLATION && found.constraint === constraint;
}

/**
 * Node's socket errors of a connection refused or dropped (in the error or its causes): the
 * database's, in practice; another service's (the object store) is just as worth a retry.
 */
const SOCKET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE']);

/**
 * The database could not be reached or ended the connection (a restart, a failover): SQLSTATE
 * class 08 (connection exception), 57P01–57P03 (shutting down, cannot connect now), a socket
 * error, or node-postgres's "Connection terminated". Worth trying again in a moment, unlike the
 * other errors.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (code.startsWith('08') || /^57P0[123]$/.test(code) || SOCKET_ERRORS.has(code)) {
        return true;
      }
    }
    if (typeof message === 'string' && /^Connection terminated\b/.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Runs `work`, again after a pause (200 ms doubling to 1 s) while the database is unavailable,
 * for up to `forMs`; the last failure is thrown, as is any other error at once.
 */
export async function whileDatabaseAway<T>(
  work: () => Promise<T>,
  forMs: number,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((done) => setTimeout(done, ms)),
  now: () => number = Date.now,
): Promise<T> {
  const until = now() + forMs;
  for (let pause = 200; ; pause = Math.min(pause * 2, 1000)) {
    try {
      return await work();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || now() + pause > until) throw error;
      await sleep(pause);
    }
  }
}
