/**
 * `npm run fuzz [-- --runs 100000] [--seed 123] [--route 'POST /api/regular/media']`: the fuzz
 * suite (apps/server/test/security/fuzz.int.test.ts, docs/security.md) run longer than in
 * `npm test` and with a random seed, printed before and after so any failure can be replayed
 * with `--seed`.
 */
import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '100000' },
    seed: { type: 'string' },
    route: { type: 'string', default: '' },
  },
});

const runs = Number(values.runs);
const seed = values.seed === undefined ? randomInt(0, 2 ** 31 - 1) : Number(values.seed);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed)) {
  console.error('usage: npm run fuzz -- [--runs N] [--seed S] [--route "METHOD /url part"]');
  process.exit(2);
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const replay = `npm run fuzz -- --runs ${runs} --seed ${seed}${values.route ? ` --route '${values.route}'` : ''}`;
console.log(`fuzz: ${runs} requests, seed ${seed} (replay: ${replay})`);
const started = Date.now();

const child = spawn(
  'npx',
  [
    'vitest',
    'run',
    '--project',
    'integration',
    'apps/server/test/security/fuzz.int.test.ts',
    '--reporter=verbose',
  ],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      FUZZ_SEED: String(seed),
      FUZZ_RUNS: String(runs),
      FUZZ_ROUTE: values.route,
    },
  },
);
child.on('exit', (code) => {
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  console.log(
    `fuzz: ${code === 0 ? 'no 5xx' : 'FAILED'} — ${runs} requests, seed ${seed}, ${minutes} min (replay: ${replay})`,
  );
  process.exit(code ?? 1);
});
