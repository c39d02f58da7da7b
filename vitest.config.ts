import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { createFilter } from 'vite';
import { defineConfig } from 'vitest/config';

// The two test tiers (docs/architecture.md), told apart by where a file lives and how it is named:
// - unit: beside the code as src/**/*.test.ts(x); no database, MQTT broker or network socket
//   (vitest.unit-setup.js refuses sockets), so the tier runs in seconds;
// - integration: under each package's test/ as *.int.test.ts; PGlite/PostgreSQL, brokers, s3rver.
// `npm run test:unit` and `npm run test:integration` each run one tier (`--project`).
const tiers = {
  unit: {
    include: [
      'apps/*/src/**/*.test.{ts,tsx}',
      'packages/*/src/**/*.test.{ts,tsx}',
      'scripts/**/*.test.ts',
    ],
    exclude: ['**/*.int.test.*'],
  },
  integration: {
    include: ['apps/*/test/**/*.int.test.{ts,tsx}', 'packages/*/test/**/*.int.test.{ts,tsx}'],
    exclude: [] as string[],
  },
};

const root = fileURLToPath(new URL('.', import.meta.url));
const excluded = ['**/node_modules/**', '**/dist/**', 'e2e/**'];

/** Every *.test.ts(x) below `dir`, skipping node_modules, dist and dot folders. */
function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const skip = entry.name.startsWith('.') || ['node_modules', 'dist'].includes(entry.name);
      return skip ? [] : testFiles(file);
    }
    return /\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

// A test file in neither tier (a test/foo.test.ts, a src/bar.int.test.ts) would never run and
// the test count would drop without a failure: CI refuses to start (as it does without PostgreSQL),
// elsewhere a warning names the files.
const inSomeTier = Object.values(tiers).map((tier) =>
  createFilter(tier.include, [...tier.exclude, ...excluded], { resolve: root }),
);
const stray = ['apps', 'packages', 'scripts']
  .flatMap((dir) => testFiles(path.join(root, dir)))
  .filter((file) => !inSomeTier.some((matches) => matches(file)))
  .map((file) => path.relative(root, file));
if (stray.length > 0) {
  const message =
    `These test files are in no test tier, so they never run:\n  ${stray.join('\n  ')}\n` +
    'Unit tests sit beside the code (src/**/*.test.ts); integration tests in test/ (*.int.test.ts).';
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`\n${message}\n`);
}

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./apps/web/src', import.meta.url)) } },
  test: {
    exclude: excluded,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each integration file opens its own databases (PGlite in memory, a fresh PostgreSQL database).
    fileParallelism: true,
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: tiers.unit.include,
          exclude: [...excluded, ...tiers.unit.exclude],
          setupFiles: ['./vitest.unit-setup.js'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: tiers.integration.include,
          exclude: [...excluded, ...tiers.integration.exclude],
          // Every file builds its own app and databases and closes them, so the files of one
          // worker share its loaded modules (the app, PGlite's WebAssembly, the AWS SDK) instead
          // of loading them again per file: about 2 s of CPU per file. A file must therefore
          // restore any global it changes (process.env, vi.spyOn) and mock no modules.
          isolate: false,
          // The migrated databases every test database is copied from (apps/server/test/databases.ts).
          globalSetup: ['./apps/server/test/global-setup.ts'],
        },
      },
    ],
  },
});
