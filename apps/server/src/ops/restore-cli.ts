// npm run restore -- <backup folder> [--force]: restores a backup into the configured installation.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { restoreBackup } from './restore.js';

const USAGE = `Usage: npm run restore -- <backup folder> [--force]
Restores into the environment's DATABASE_URL (or the embedded database in DATA_DIR) and object
store, runs the migrations and checks the result. Stop the server first.
  --force  replace a database or object folder that already holds data`;

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { force: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || positionals.length !== 1) {
    console.log(USAGE);
    if (!values.help) process.exit(2);
    return;
  }
  const started = Date.now();
  const report = await restoreBackup({
    config: loadConfig(),
    from: path.resolve(positionals[0]!),
    force: values.force,
    log: (line) => console.log(line),
  });
  console.log(
    `Restored the backup of ${report.manifest.created_at}: ${report.rows.media} media, ` +
      `${report.rows.payment_transactions} payments, ${report.rows.devices} booths; ` +
      `${report.objectsChecked} objects found in the store; ` +
      `${report.migrated.length} migrations applied; healthy (${((Date.now() - started) / 1000).toFixed(1)} s).`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
