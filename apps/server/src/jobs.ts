import type { Config } from './config.js';
import type { Job, JobReport } from './lib/job-runner.js';
import type { PlannedWork } from './modules/health/job-plans.repository.js';
import { PREVIEW_MAX_ATTEMPTS } from './modules/media/preview-worker.js';
import type { Services } from './services.js';

/**
 * Every background job's name and what it does: what `npm run jobs -- --list` prints without
 * opening anything, and what backgroundJobs() gives each job (a job added there is added here).
 */
export const JOB_DESCRIPTIONS = {
  'delivery-deadline':
    'Closes captures past their deadline; refunds delivery failures (payment or credit) and tells the visitor by SMS',
  'preview-sweep': 'Makes the low-res previews still missing for uploaded items',
  'payment-reconciler':
    'Asks the provider about pending payments and refunds, expires stale ones, turns unused payments into credit',
  'rollout-driver':
    'Drives staged rollouts: sends updates booth by booth, checks versions, moves waves on',
  'sign-in-purge':
    'Deletes expired sign-in codes, sign-in links, spent passkey challenges, refresh tokens and old throttling events',
  'media-retention':
    'Tells people by SMS 48 hours before their photos and videos reach MEDIA_RETENTION_DAYS, then deletes them and their files',
  'account-retention':
    'Tells people without a sign-in for MEDIA_RETENTION_DAYS by SMS, then deletes their accounts 48 hours later unless they sign in',
  'payment-record-retention': 'Deletes payment records older than PAYMENT_RECORD_RETENTION_YEARS',
  'data-export-builder': 'Builds the ZIPs people asked for with "Download my data"',
  'data-export-expiry': 'Deletes data export ZIPs whose download link has expired',
  'invitation-expiry': 'Marks invitations not answered within INVITE_TTL_DAYS expired',
  'object-cleanup':
    'Deletes objects of erased or deleted records and uploads never confirmed within a day',
  'counters-rebuild':
    'Recounts the statistics counters (media per booth and day, captures, visitors, templates, revenue) from the rows',
} as const satisfies Record<string, string>;

export type JobName = keyof typeof JOB_DESCRIPTIONS;

/** A job's name and its description from JOB_DESCRIPTIONS. */
function about(name: JobName): Pick<Job, 'name' | 'description'> {
  return { name, description: JOB_DESCRIPTIONS[name] };
}

/**
 * Every background job (lib/job-runner.ts): run on its interval by every instance, by hand with
 * `npm run jobs -- <name> [--dry-run]`, and reported in GET /api/health/details.
 *
 * Each job claims its work in the database (rows leased with `FOR UPDATE SKIP LOCKED` or a lease
 * column, conditional updates, unique rows), so two instances never do the same item and a
 * second run does nothing more. `run({ dryRun: true })` writes, sends and asks nothing: it
 * returns the counts it would report and a `plan` line per item.
 *
 * A job added here needs: a unique hyphenated name with its description in JOB_DESCRIPTIONS,
 * its interval, and both the real run and the dry run (a plan from the same conditions the real
 * run claims with).
 */
export function backgroundJobs(config: Config, services: Services): Job[] {
  const now = () => services.clock();
  return [
    {
      // The delivery promise (modules/media/delivery-policy.ts): captures past their deadline
      // closed as delivered, given back, or delivery failures refunded; then the refunds the
      // provider does not have yet are sent, and the visitors told by SMS.
      ...about('delivery-deadline'),
      intervalMs: config.captures.sweepIntervalMs,
      run: async ({ dryRun }): Promise<JobReport> => {
        if (dryRun) {
          const sweep = await services.captures.planSweep();
          const pending = await services.deliveries.pending();
          return {
            counts: {
              ...sweep.counts,
              refundsToSend: pending.refunds.length,
              smsToSend: pending.notices.length,
            },
            plan: [
              ...sweep.plan,
              ...pending.refunds.map((id) => `capture ${id}: refund would be sent to the provider`),
              ...pending.notices.map((id) => `capture ${id}: the visitor would be told by SMS`),
            ],
          };
        }
        const sweep = await services.captures.sweepUndelivered();
        return {
          counts: {
            ...sweep,
            ...(await services.deliveries.sendRefunds()),
            ...(await services.deliveries.sendNotices()),
          },
        };
      },
    },
    {
      // Uploaded items still without a preview (a crash, a failed attempt, a full queue).
      ...about('preview-sweep'),
      intervalMs: config.previews.sweepIntervalMs,
      run: async ({ dryRun }): Promise<JobReport> => {
        if (dryRun) {
          const due = await services.jobPlans.previewsDue(now(), PREVIEW_MAX_ATTEMPTS);
          return {
            counts: { previews: due.count },
            plan: itemLines('media', due, 'would get its preview'),
          };
        }
        return { counts: { queued: await services.previews.runOnce() } };
      },
      stop: () => services.previews.stop(),
    },
    {
      // Pending payments and refunds checked with the provider; stale ones expired.
      ...about('payment-reconciler'),
      intervalMs: config.payments.reconcileIntervalSeconds * 1000,
      run: async ({ dryRun }): Promise<JobReport> => {
        if (dryRun) {
          const at = now();
          const plans = services.jobPlans;
          const payments = await plans.paymentsDue(services.paymentProvider.name, at);
          const refunds = await plans.refundsDue(at);
          const unused = await plans.unusedPayments(
            new Date(at.getTime() - config.payments.unusedCreditMinutes * 60_000),
          );
          return {
            counts: { check: payments.count, refunds: refunds.count, unusedToCredit: unused.count },
            plan: [
              ...itemLines('transaction', payments, 'would be checked with the provider'),
              ...itemLines('refund', refunds, 'would be checked with the provider'),
              ...itemLines('transaction', unused, 'unused: would become credit'),
            ],
          };
        }
        return { counts: { ...(await services.payments.reconcile()) } };
      },
      stop: async () => services.paymentProvider.settled?.(),
    },
    {
      // Staged rollouts: send the next booths their update, see versions arrive, move waves on.
      // Booths are claimed in the database, so every instance may drive every rollout.
      ...about('rollout-driver'),
      intervalMs: config.rollouts.tickMs,
      run: async ({ dryRun }): Promise<JobReport> => {
        if (dryRun) {
          const active = await services.jobPlans.activeRollouts();
          return {
            counts: { rollouts: active.length },
            plan: active.map(
              (rollout) =>
                `rollout ${rollout.id} (${rollout.state}): ${rollout.waiting} booths still to update`,
            ),
          };
        }
        return { counts: { ...(await services.rolloutDriver.drive()) } };
      },
      stop: () => services.rolloutDriver.stop(),
    },
    {
      // Sign-in records past their use, for the whole fleet once an hour (deleting is
      // idempotent; the claim only saves the other instances the work).
      ...about('sign-in-purge'),
      intervalMs: 3_600_000,
      scope: 'fleet',
      run: async (options): Promise<JobReport> => {
        const records = await services.auth.purgeExpired(options);
        const passkeyChallenges = await services.passkeys.purgeChallenges(options);
        const counts = { ...records, passkeyChallenges };
        if (!options.dryRun) return { counts };
        return {
          counts,
          plan: Object.entries(counts).map(
            ([kind, n]) => `${kind}: ${n} past their use; would be deleted`,
          ),
        };
      },
    },
    {
      // Photos and videos past MEDIA_RETENTION_DAYS: one SMS per person 48 hours before, then
      // erased with their objects (modules/retention).
      ...about('media-retention'),
      intervalMs: 86_400_000,
      scope: 'fleet',
      run: (options) => services.retention.media(options),
    },
    {
      // Accounts without a sign-in for MEDIA_RETENTION_DAYS: an SMS 48 hours before, then
      // erased (payments kept without the person); staff accounts are left alone.
      ...about('account-retention'),
      intervalMs: 86_400_000,
      scope: 'fleet',
      run: (options) => services.retention.accounts(options),
    },
    {
      // Payment records past PAYMENT_RECORD_RETENTION_YEARS (the accounting law's period).
      ...about('payment-record-retention'),
      intervalMs: 86_400_000,
      scope: 'fleet',
      run: (options) => services.retention.paymentRecords(options),
    },
    {
      // "Download my data": pending exports claimed one at a time and built into a ZIP in the
      // store (a request also starts a run at once; this catches the rest and retries).
      ...about('data-export-builder'),
      intervalMs: config.privacy.dataExportSweepIntervalMs,
      run: (options) => services.dataExports.runOnce(options),
      stop: () => services.dataExports.stop(),
    },
    {
      // A ready export is offered for DATA_EXPORT_TTL_HOURS; then its ZIP is deleted.
      ...about('data-export-expiry'),
      intervalMs: 600_000,
      run: (options) => services.dataExports.expireOnce(options),
    },
    {
      // Invitations not answered within INVITE_TTL_DAYS: marked expired (reads and answers also
      // check the age, so none works a moment too long between runs).
      ...about('invitation-expiry'),
      intervalMs: 3_600_000,
      run: async ({ dryRun }): Promise<JobReport> => {
        if (dryRun) {
          const stale = await services.invitations.staleInvitations();
          return {
            counts: { expired: stale.length },
            plan: stale.map((id) => `invitation ${id}: unanswered too long; would expire`),
          };
        }
        return { counts: { expired: await services.invitations.expireInvitations() } };
      },
    },
    {
      // Objects nothing points at any more: erased or deleted records' files (at once, retried
      // when the store failed) and presigned uploads never confirmed (a day after signing).
      ...about('object-cleanup'),
      intervalMs: 600_000,
      run: (options) => services.objectCleanup.runOnce(options),
    },
    {
      // Migration 0023's counters (statistics, All Media's and an organization's media totals)
      // are kept exact by triggers in each change's transaction; this recounts them from the
      // rows, to repair them after a bulk load with triggers off, an old dump restored or a hand
      // edit. Writes to media and payments wait meanwhile (seconds per million media).
      ...about('counters-rebuild'),
      intervalMs: 7 * 86_400_000,
      scope: 'fleet',
      run: async ({ dryRun }): Promise<JobReport> => {
        if (dryRun) {
          const read = await services.statsCounters.rowsToRecount();
          return {
            counts: read,
            plan: [
              `every counter would be recounted from ${read.media} uploaded media and ${read.payments} completed payments`,
            ],
          };
        }
        return { counts: await services.statsCounters.rebuildCounters() };
      },
    },
  ];
}

/** A plan's lines for planned items: "media 12: would …", and how many more were not listed. */
export function itemLines(kind: string, work: PlannedWork, what: string): string[] {
  const lines = work.ids.map((id) => `${kind} ${id}: ${what}`);
  if (work.count > work.ids.length) lines.push(`… and ${work.count - work.ids.length} more`);
  return lines;
}
