import type { FastifyBaseLogger } from 'fastify';

/**
 * A background job every server instance runs on an interval. Jobs that share work between
 * instances lease what they take in the database (`FOR UPDATE SKIP LOCKED`, a lease column), so
 * any number of instances may run every job at once; the runner only keeps one instance's runs
 * of a job from overlapping.
 */
export interface Job {
  /** For the log. */
  name: string;
  /** How often; 0 or less = never on a timer (a job switched off by configuration). */
  intervalMs: number;
  /** One run; its result, when it is a non-empty report, is logged at info. */
  run(): Promise<JobReport | void>;
  /** Called once when the runner stops, after the last run ended (drain queues, settle work). */
  stop?(): Promise<void>;
}

/** What a run did, for the log: logged only when something happened (any count above 0). */
export type JobReport = Record<string, number>;

/** Starts and stops every background job the same way (app.ts registers them once). */
export class JobRunner {
  private readonly jobs: Job[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly running = new Map<string, Promise<JobReport | void>>();
  private stopped = false;

  constructor(private readonly log: FastifyBaseLogger) {}

  add(...jobs: Job[]): void {
    this.jobs.push(...jobs);
  }

  start(): void {
    for (const job of this.jobs) {
      if (job.intervalMs <= 0) continue;
      const timer = setInterval(() => {
        this.runNow(job.name).catch((error: unknown) =>
          this.log.warn(
            { err: error, job: job.name },
            `${job.name} failed; retrying next interval`,
          ),
        );
      }, job.intervalMs);
      timer.unref();
      this.timers.push(timer);
    }
  }

  /** One run of the named job now, or the run already in progress. */
  runNow(name: string): Promise<JobReport | void> {
    const job = this.jobs.find((candidate) => candidate.name === name);
    if (!job) return Promise.reject(new Error(`no job named ${name}`));
    const current = this.running.get(name);
    if (current) return current;
    if (this.stopped) return Promise.resolve();
    const run = job.run().then((report) => {
      if (report && Object.values(report).some((count) => count > 0)) {
        this.log.info({ job: name, report }, `${name} done`);
      }
      return report;
    });
    this.running.set(name, run);
    const clear = () => {
      if (this.running.get(name) === run) this.running.delete(name);
    };
    run.then(clear, clear);
    return run;
  }

  /** No more runs; waits for the runs in progress, then lets each job settle. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    await Promise.all([...this.running.values()].map((run) => run.catch(() => undefined)));
    for (const job of this.jobs) await job.stop?.();
  }
}
