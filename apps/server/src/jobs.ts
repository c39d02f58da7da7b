import type { Config } from './config.js';
import type { Job } from './lib/job-runner.js';
import type { Services } from './services.js';

/**
 * Every background job, each run by every instance on its interval (lib/job-runner.ts). Work
 * shared between instances is leased row by row in the database, so no two instances take the
 * same capture, preview or payment at once.
 */
export function backgroundJobs(config: Config, services: Services): Job[] {
  return [
    {
      // A capture that never delivers gives its entitlement back (DESIGN.md 2b step 4).
      name: 'capture sweep',
      intervalMs: config.captures.sweepIntervalMs,
      run: async () => ({ released: await services.captures.sweepUndelivered() }),
    },
    {
      // Items still not delivered an hour after their capture: marked late and logged, once.
      name: 'late delivery sweep',
      intervalMs: config.captures.sweepIntervalMs,
      run: async () => ({ late: await services.deliveries.markLate() }),
    },
    {
      // Uploaded items still without a preview (a crash, a failed attempt, a full queue).
      name: 'preview sweep',
      intervalMs: config.previews.sweepIntervalMs,
      run: async () => {
        await services.previews.runOnce(); // logs what it made itself
      },
      stop: () => services.previews.stop(),
    },
    {
      // Pending payments and refunds checked with the provider; stale ones expired.
      name: 'payment reconciler',
      intervalMs: config.payments.reconcileIntervalSeconds * 1000,
      run: async () => ({ ...(await services.payments.reconcile()) }),
      stop: async () => services.paymentProvider.settled?.(),
    },
    {
      // Staged rollouts: send the next booths their update, see versions arrive, move waves on.
      // Booths are claimed in the database, so every instance may drive every rollout.
      name: 'rollout driver',
      intervalMs: config.rollouts.tickMs,
      run: async () => ({ ...(await services.rollouts.drive()) }),
      stop: () => services.rollouts.stop(),
    },
    {
      // Old sign-in throttling events; any instance may do it, the delete is idempotent.
      name: 'housekeeping',
      intervalMs: 600_000,
      run: async () => {
        await services.auth.pruneEvents();
        // Spent passkey challenges that have expired.
        await services.passkeys.pruneChallenges();
      },
    },
  ];
}
