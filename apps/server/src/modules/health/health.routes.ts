import { HealthDetailsSchema, HealthSchema, type JobStatus } from '@flashbooth/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../errors.js';
import type { Job } from '../../lib/job-runner.js';
import { toApiTimestamp } from '../../lib/time.js';
import type { JobRunsRepository } from './job-runs.repository.js';

/** Something the app cannot work without, checked by GET /api/health. */
export interface HealthCheck {
  /** Said in the 503 when the check fails: "The {name} is not reachable." */
  name: string;
  ping: () => Promise<void>;
}

export interface HealthRoutesOptions {
  checks: HealthCheck[];
  /** The background jobs and their recorded runs, for GET /api/health/details. */
  jobs: () => readonly Job[];
  jobRuns: Pick<JobRunsRepository, 'all'>;
  now: () => Date;
  /** Who may read the details (details-access.ts: the metrics token or a super user). */
  detailsAccess: (request: FastifyRequest) => Promise<void>;
}

/** A job is overdue after this many intervals without a successful run. */
const OVERDUE_INTERVALS = 3;

/** GET /api/health: ready once every check answers (DESIGN.md "Health"); and its details. */
export const healthRoutes: FastifyPluginAsyncZod<HealthRoutesOptions> = async (
  app,
  { checks, jobs, jobRuns, now, detailsAccess },
) => {
  const ready = async () => {
    for (const check of checks) {
      try {
        await check.ping();
      } catch (error) {
        throw new AppError('service_unavailable', `The ${check.name} is not reachable.`, {
          cause: error,
        });
      }
    }
  };

  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Ready when the database, the object store and the MQTT broker answer',
        response: { 200: HealthSchema },
      },
    },
    async () => {
      await ready();
      return { status: 'ok' as const };
    },
  );

  app.get(
    '/health/details',
    {
      onRequest: detailsAccess,
      schema: {
        tags: ['health'],
        security: [{ bearerAuth: [] }],
        summary:
          "Ready as GET /api/health, with each background job's last run and counts (for monitoring; the metrics token or a super user)",
        response: { 200: HealthDetailsSchema },
      },
    },
    async () => {
      await ready();
      const rows = new Map((await jobRuns.all()).map((row) => [row.name, row]));
      const at = now().getTime();
      const stamp = (date: Date | null) => (date ? toApiTimestamp(date) : null);
      const statuses = jobs().map((job): JobStatus => {
        const row = rows.get(job.name);
        const since = row?.lastSuccessAt ?? null;
        return {
          name: job.name,
          description: job.description,
          interval_seconds: Math.max(0, Math.round(job.intervalMs / 1000)),
          last_started_at: stamp(row?.lastStartedAt ?? null),
          last_finished_at: stamp(row?.lastFinishedAt ?? null),
          last_success_at: stamp(since),
          last_failed: Boolean(row?.lastError),
          last_counts: row?.lastCounts ?? {},
          runs: row?.runs ?? 0,
          failures: row?.failures ?? 0,
          // A job off the timer is never overdue; one that never ran is judged from now on.
          overdue:
            job.intervalMs > 0 &&
            since !== null &&
            at - since.getTime() > OVERDUE_INTERVALS * job.intervalMs,
        };
      });
      return { status: 'ok' as const, jobs: statuses };
    },
  );
};
