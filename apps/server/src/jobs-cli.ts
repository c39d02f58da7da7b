import Fastify from 'fastify';
import { type Config, ConfigError, loadConfig, StartupError } from './config.js';
import { type AppDependencies, openInfrastructure } from './infrastructure.js';
import { backgroundJobs, JOB_DESCRIPTIONS, type JobName } from './jobs.js';
import { type JobReport, JobRunner } from './lib/job-runner.js';
import { loggerOptions } from './plugins/logging.js';
import { createServices } from './services.js';

/**
 * `npm run jobs -- <name> [--dry-run]`: one background job run by hand, on the database and
 * store the environment names (as the server would run it), with its report printed.
 * `npm run jobs -- --list` lists the jobs (opening nothing). A dry run writes, sends and asks
 * nothing.
 */
const USAGE = [
  'Usage: npm run jobs -- <name> [--dry-run]',
  '       npm run jobs -- --list',
  '',
  'Runs one background job now, with the settings of the environment (DATABASE_URL or DATA_DIR,',
  'the store, SMS and payment provider). --dry-run prints what the job would do and changes',
  'nothing. With the embedded database (no DATABASE_URL), stop the server first: only one',
  'process at a time can open DATA_DIR.',
].join('\n');

export interface JobsCommandIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

export interface JobsCommandOptions {
  /** The configuration; read from the environment when absent. */
  config?: Config;
  /** What tests hand in instead of what the configuration names (their database, their clock). */
  deps?: AppDependencies;
}

/** Jobs that only make sense inside a running server (they talk to booths over its line). */
const SERVER_ONLY: Partial<Record<JobName, string>> = {
  'rollout-driver':
    'The rollout driver sends updates to booths over the running server’s line to them; it runs in the server. Use --dry-run to see what it would do.',
};

function isJobName(name: string): name is JobName {
  return Object.hasOwn(JOB_DESCRIPTIONS, name);
}

/** Runs the command; returns the process exit status (0 done, 1 failed, 2 bad usage). */
export async function runJobsCommand(
  argv: string[],
  io: JobsCommandIo,
  options: JobsCommandOptions = {},
): Promise<number> {
  const dryRun = argv.includes('--dry-run');
  const list = argv.includes('--list');
  const unknown = argv.filter(
    (arg) => arg.startsWith('-') && arg !== '--dry-run' && arg !== '--list',
  );
  const names = argv.filter((arg) => !arg.startsWith('-'));
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(USAGE);
    return 0;
  }
  if (unknown.length > 0 || names.length > 1 || (!list && names.length === 0)) {
    if (unknown.length > 0) io.err(`Unknown option ${unknown[0]}.`);
    else if (names.length > 1) io.err('Name one job at a time.');
    else io.err('Name the job to run.');
    io.err(USAGE);
    return 2;
  }

  // Listing and naming need nothing opened: the names come with the code, not the database
  // (a running server may hold the embedded one).
  if (list) {
    for (const [name, description] of Object.entries(JOB_DESCRIPTIONS)) {
      io.out(`${name.padEnd(24)} ${description}`);
    }
    return 0;
  }
  const name = names[0]!;
  if (!isJobName(name)) {
    io.err(`No job is named "${name}". The jobs are:`);
    for (const known of Object.keys(JOB_DESCRIPTIONS)) io.err(`  ${known}`);
    return 2;
  }
  if (!dryRun && SERVER_ONLY[name]) {
    io.err(SERVER_ONLY[name]);
    return 2;
  }

  let config: Config;
  try {
    config = options.config ?? loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(error.message);
      return 2;
    }
    throw error;
  }
  const deps = options.deps ?? {};
  // A Fastify instance only for its logger (the same pino setup the server uses); it never listens.
  const host = Fastify({ logger: loggerOptions(config, deps) });
  const infra = await openInfrastructure(config, deps, host.log);
  try {
    const services = createServices(config, infra, deps, host.log);
    const runner = new JobRunner({ log: host.log, recorder: services.jobRuns, now: infra.now });
    runner.add(...backgroundJobs(config, services));
    let report: JobReport;
    try {
      report = await runner.runNow(name, { dryRun });
    } catch (error) {
      io.err(`${name} failed: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    } finally {
      await runner.stop();
    }
    for (const line of formatReport(name, report, dryRun)) io.out(line);
    return 0;
  } finally {
    await infra.deviceLink.stop();
    await infra.close();
    await host.close();
  }
}

/** The printed report: a heading, one line per count, then the plan's lines (dry runs). */
export function formatReport(name: string, report: JobReport, dryRun: boolean): string[] {
  const lines = [dryRun ? `${name} (dry run: nothing was changed)` : `${name} done`];
  const counts = Object.entries(report.counts);
  if (counts.length === 0 && !report.plan?.length) lines.push('  nothing to do');
  for (const [kind, count] of counts) lines.push(`  ${kind}: ${count}`);
  if (dryRun) {
    if (report.plan?.length) {
      lines.push('Would do:');
      for (const line of report.plan) lines.push(`  ${line}`);
    } else if (counts.every(([, count]) => count === 0)) lines.push('Would do: nothing');
  }
  return lines;
}

// Run as a program (`node --import tsx apps/server/src/jobs-cli.ts …`), not when imported by tests.
if (import.meta.url === `file://${process.argv[1]}`) {
  runJobsCommand(process.argv.slice(2), {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  }).then(
    (status) => process.exit(status),
    (error: unknown) => {
      // A setting to fix (a database that refuses, DATA_DIR held by the server): its one line.
      console.error(error instanceof StartupError ? error.message : error);
      process.exit(1);
    },
  );
}
