import { SOFTWARE_MESSAGES } from '@flashbooth/contracts';
import { AppError, notFound } from '../../errors.js';

/** The constraints of migration 0006 that a request can run into. */
export const SOFTWARE_CONSTRAINTS = {
  /** devices.software_channel_id → software_channels (ON DELETE SET NULL). */
  deviceChannel: 'devices_software_channel_id_fkey',
  /** software_channels.release_id → software_releases (ON DELETE RESTRICT). */
  channelRelease: 'software_channels_release_id_fkey',
  /** unique (lower(version)). */
  releaseVersion: 'software_releases_version_key',
} as const;

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
 * For the global error handler: a request that named a software channel that does not exist
 * (PATCH devices/{id} {software_channel_id}) meets the foreign key of migration 0006; that is the
 * caller's mistake (404 "Software channel not found."), not a server failure.
 */
export function softwareConstraintError(error: unknown): AppError | undefined {
  if (isForeignKeyViolation(error, SOFTWARE_CONSTRAINTS.deviceChannel)) {
    return notFound(SOFTWARE_MESSAGES.channelNotFound);
  }
  return undefined;
}

export const versionTaken = () => new AppError('conflict', SOFTWARE_MESSAGES.versionTaken);
