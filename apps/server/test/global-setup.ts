import { prepareMigratedDatabases } from './databases.js';

/**
 * The integration tier's global setup: the migrated PGlite snapshot and PostgreSQL template every
 * test database starts from (databases.ts), made before any test file runs instead of in the
 * first file's hooks, where a loaded machine could run over the hook's time limit.
 */
export default async function setup(): Promise<void> {
  await prepareMigratedDatabases();
}
