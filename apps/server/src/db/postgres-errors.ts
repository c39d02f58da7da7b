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
