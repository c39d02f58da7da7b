import { asc, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../db/client.js';
import { jobRuns, type JobRunRow } from '../../db/schema.js';
import type { FinishedRun, JobRecorder } from '../../lib/job-runner.js';

/**
 * job_runs: each job's last run (for the health details) and the schedule claim of `fleet` jobs.
 * One row per job, written with upserts, so any number of instances may write it.
 */
export class JobRunsRepository implements JobRecorder {
  constructor(private readonly db: Database) {}

  async claimRun(name: string, at: Date, everyMs: number): Promise<boolean> {
    const next = new Date(at.getTime() + everyMs).toISOString();
    // One statement: the row is created by the first instance ever, and otherwise moved on only
    // when its time has come, so exactly one caller gets true per interval.
    const result = await this.db.execute(sql`
      insert into job_runs (name, next_run_at) values (${name}, ${next}::timestamptz)
      on conflict (name) do update set next_run_at = excluded.next_run_at
        where job_runs.next_run_at is null or job_runs.next_run_at <= ${at.toISOString()}::timestamptz
      returning name`);
    return rowsOf(result).length > 0;
  }

  async record(run: FinishedRun): Promise<void> {
    const ok = run.error === null;
    const counts = JSON.stringify(run.counts);
    await this.db.execute(sql`
      insert into job_runs (name, last_started_at, last_finished_at, last_success_at, last_counts,
        last_error, runs, failures)
      values (${run.name}, ${run.startedAt.toISOString()}::timestamptz,
        ${run.finishedAt.toISOString()}::timestamptz,
        ${ok ? run.finishedAt.toISOString() : null}::timestamptz, ${counts}::jsonb, ${run.error},
        1, ${ok ? 0 : 1})
      on conflict (name) do update set
        last_started_at = excluded.last_started_at,
        last_finished_at = excluded.last_finished_at,
        last_success_at = coalesce(excluded.last_success_at, job_runs.last_success_at),
        -- A failed run keeps the last successful run's counts.
        last_counts = case when excluded.last_error is null then excluded.last_counts
          else job_runs.last_counts end,
        last_error = excluded.last_error,
        runs = job_runs.runs + 1,
        failures = job_runs.failures + excluded.failures`);
  }

  all(): Promise<JobRunRow[]> {
    return this.db.select().from(jobRuns).orderBy(asc(jobRuns.name));
  }
}
