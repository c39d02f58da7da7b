import type { FastifyBaseLogger } from 'fastify';

/** How a run is asked for. */
export interface JobRunOptions {
  /**
   * Only say what a run would do: nothing is written, sent or asked of a provider; the report's
   * counts are what it would do and `plan` lists the items (`npm run jobs -- <name> --dry-run`).
   */
  dryRun: boolean;
}

/** What a run did (or, dry, would do). */
export interface JobReport {
  /** How many of each kind of thing; logged and kept in job_runs when any is above 0. */
  counts: Record<string, number>;
  /**
   * Dry runs: one line per item the run would touch, by id and reason (never names, phones or
   * message texts: the plan is printed and may be pasted into a ticket).
   */
  plan?: string[];
}

/**
 * A background job, run on a schedule by every server instance and by hand
 * (`npm run jobs -- <name> [--dry-run]`).
 *
 * Safe on many instances: a job claims each item it works on in the database (`FOR UPDATE SKIP
 * LOCKED`, a lease column, a conditional update or a unique row), so two instances never do the
 * same item, and running it twice does nothing more. The runner itself only keeps one instance's
 * runs of a job from overlapping, and for `fleet` jobs claims the run itself.
 */
export interface Job {
  /** Lower-case words joined by hyphens: the name in the log, in job_runs and on the command line. */
  name: string;
  /** One line for `npm run jobs -- --list`: what it does. */
  description: string;
  /** How often; 0 or less = never on a timer (a job switched off by configuration). */
  intervalMs: number;
  /**
   * `instance` (default): each instance runs it every `intervalMs`; the items are claimed one by
   * one. `fleet`: the run is claimed in job_runs, so the fleet as a whole runs it once per
   * `intervalMs` (daily purges), and instances restarted more often than that still run it.
   */
  scope?: 'instance' | 'fleet';
  /** One run. */
  run(options: JobRunOptions): Promise<JobReport>;
  /** Called once when the runner stops, after the last run ended (drain queues, settle work). */
  stop?(): Promise<void>;
}

/** Where the runner keeps each job's last run (job_runs; modules/health reads it back). */
export interface JobRecorder {
  /**
   * Claims the next scheduled run of a `fleet` job: true for exactly one caller once `everyMs`
   * has passed since the last claimed run (atomic in the database).
   */
  claimRun(name: string, at: Date, everyMs: number): Promise<boolean>;
  /** The outcome of a run that was not dry (the counts, or what failed). */
  record(run: FinishedRun): Promise<void>;
}

export interface FinishedRun {
  name: string;
  startedAt: Date;
  finishedAt: Date;
  counts: Record<string, number>;
  /** Set when the run threw: the error's message (logged in full, kept short here). */
  error: string | null;
}

export interface JobRunnerOptions {
  log: FastifyBaseLogger;
  /** Keeps each run's outcome; absent = not kept (unit tests). */
  recorder?: JobRecorder;
  now?: () => Date;
  /** Told of every run that was not dry once it ended (the metrics); must not throw. */
  observer?: (run: FinishedRun) => void;
}

/** A fleet job's claim is tried this often on each instance (its run is at most once per interval). */
const FLEET_TICK_MS = 5 * 60_000;

/** Starts and stops every background job the same way (app.ts and the jobs command use it). */
export class JobRunner {
  private readonly jobs: Job[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly running = new Map<string, Promise<JobReport>>();
  private readonly log: FastifyBaseLogger;
  private readonly now: () => Date;
  private stopped = false;

  constructor(private readonly options: JobRunnerOptions) {
    this.log = options.log;
    this.now = options.now ?? (() => new Date());
  }

  add(...jobs: Job[]): void {
    for (const job of jobs) {
      if (this.jobs.some((known) => known.name === job.name)) {
        throw new Error(`two jobs are named ${job.name}`);
      }
      this.jobs.push(job);
    }
  }

  list(): readonly Job[] {
    return this.jobs;
  }

  start(): void {
    for (const job of this.jobs) {
      if (job.intervalMs <= 0) continue;
      const fleet = job.scope === 'fleet';
      const timer = setInterval(
        () => {
          this.scheduled(job).catch((error: unknown) =>
            this.log.warn(
              { err: error, job: job.name },
              `${job.name} failed; retrying next interval`,
            ),
          );
        },
        fleet ? Math.min(job.intervalMs, FLEET_TICK_MS) : job.intervalMs,
      );
      timer.unref();
      this.timers.push(timer);
    }
  }

  /** A timer's run: a fleet job only when this instance claimed the interval's run. */
  private async scheduled(job: Job): Promise<void> {
    if (this.stopped) return;
    if (job.scope === 'fleet') {
      const { recorder } = this.options;
      if (recorder && !(await recorder.claimRun(job.name, this.now(), job.intervalMs))) return;
    }
    await this.runNow(job.name);
  }

  /**
   * One run of the named job now (or the run of it already in progress on this instance). A
   * dry run never waits for or joins a real one, and is not recorded.
   */
  runNow(name: string, options: JobRunOptions = { dryRun: false }): Promise<JobReport> {
    const job = this.jobs.find((candidate) => candidate.name === name);
    if (!job) {
      const known = this.jobs.map((candidate) => candidate.name).join(', ');
      return Promise.reject(new Error(`No job is named "${name}". The jobs are: ${known}.`));
    }
    if (options.dryRun) return job.run(options);
    const current = this.running.get(name);
    if (current) return current;
    if (this.stopped) return Promise.resolve({ counts: {} });
    const run = this.recorded(job);
    this.running.set(name, run);
    const clear = () => {
      if (this.running.get(name) === run) this.running.delete(name);
    };
    run.then(clear, clear);
    return run;
  }

  private async recorded(job: Job): Promise<JobReport> {
    const startedAt = this.now();
    let report: JobReport;
    try {
      report = await job.run({ dryRun: false });
    } catch (error) {
      await this.keep({
        name: job.name,
        startedAt,
        finishedAt: this.now(),
        counts: {},
        error: (error instanceof Error ? error.message : String(error)).slice(0, 500),
      });
      throw error;
    }
    if (Object.values(report.counts).some((count) => count > 0)) {
      this.log.info({ job: job.name, counts: report.counts }, `${job.name} done`);
    }
    await this.keep({
      name: job.name,
      startedAt,
      finishedAt: this.now(),
      counts: report.counts,
      error: null,
    });
    return report;
  }

  /** Keeps a run's outcome; a failure to keep it is logged, never fails the run. */
  private async keep(run: FinishedRun): Promise<void> {
    this.options.observer?.(run);
    try {
      await this.options.recorder?.record(run);
    } catch (error) {
      this.log.warn({ err: error, job: run.name }, 'the job run could not be recorded');
    }
  }

  /** No more runs; waits for the runs in progress, then lets each job settle. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    await Promise.all([...this.running.values()].map((run) => run.catch(() => undefined)));
    for (const job of this.jobs) await job.stop?.();
  }
}
