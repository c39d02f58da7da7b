// npm run backup -- [--out <folder>] [--keep <n>]: one backup of the configured installation.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { createBackup } from './backup.js';

const USAGE = `Usage: npm run backup -- [--out <folder>] [--keep <n>]
  --out   where backups are kept (default BACKUP_DIR, else ./backups); each is a new folder
  --keep  keep the n newest backups there and delete older ones (default 14; 0 keeps all)
Reads the same environment as the server (DATABASE_URL, DATA_DIR, STORAGE_DRIVER, S3_*).`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      keep: { type: 'string', default: '14' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const keep = Number(values.keep);
  if (!Number.isInteger(keep) || keep < 0)
    throw new ConfigError(`--keep must be a whole number.\n${USAGE}`);
  const config = loadConfig();
  const outDir = path.resolve(values.out ?? process.env.BACKUP_DIR ?? 'backups');
  const started = Date.now();
  const { dir, manifest, removed } = await createBackup({
    config,
    outDir,
    keep,
    log: (line) => console.log(line),
  });
  const bytes = manifest.files.reduce((sum, file) => sum + file.bytes, 0);
  console.log(
    `Backup written to ${dir}: ${manifest.database.kind} at ${manifest.database.migrations.at(-1) ?? 'no migrations'}, ` +
      `${manifest.database.rows.media} media, ${manifest.storage.objects} objects, ` +
      `${(bytes / 1e6).toFixed(1)} MB in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
  );
  for (const old of removed) console.log(`Deleted the older backup ${old}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
