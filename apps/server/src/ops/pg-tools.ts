import { spawn } from 'node:child_process';

/**
 * libpq's environment for a postgres:// URL, so pg_dump and pg_restore never carry the password
 * on their command line (where `ps` would show it).
 */
export function libpqEnvironment(databaseUrl: string): Record<string, string> {
  const url = new URL(databaseUrl);
  const env: Record<string, string> = {};
  if (url.hostname) env.PGHOST = decodeURIComponent(url.hostname.replace(/^\[|\]$/g, ''));
  if (url.port) env.PGPORT = url.port;
  if (url.username) env.PGUSER = decodeURIComponent(url.username);
  if (url.password) env.PGPASSWORD = decodeURIComponent(url.password);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (database) env.PGDATABASE = database;
  // The query's libpq settings (sslmode, sslrootcert, host for a socket folder, …).
  const names: Record<string, string> = {
    sslmode: 'PGSSLMODE',
    sslrootcert: 'PGSSLROOTCERT',
    sslcert: 'PGSSLCERT',
    sslkey: 'PGSSLKEY',
    host: 'PGHOST',
    port: 'PGPORT',
    application_name: 'PGAPPNAME',
    connect_timeout: 'PGCONNECT_TIMEOUT',
  };
  for (const [key, value] of url.searchParams) {
    const name = names[key];
    if (name) env[name] = value;
  }
  return env;
}

/**
 * Runs a PostgreSQL client program (pg_dump, pg_restore) with an argument array and the
 * database's libpq environment; rejects with its error output when it fails or is missing.
 */
export function runPgTool(program: string, args: string[], databaseUrl: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, {
      env: { ...process.env, ...libpqEnvironment(databaseUrl) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new Error(
              `${program} was not found. Install PostgreSQL's client programs (Debian: apt install postgresql-client), of the server's major version or newer.`,
            )
          : error,
      );
    });
    child.on('close', (code) => {
      if (code === 0) resolve(output);
      else reject(new Error(`${program} failed (exit ${code}):\n${output.trim()}`));
    });
  });
}
