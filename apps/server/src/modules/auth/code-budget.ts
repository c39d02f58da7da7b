/**
 * The code budget of one phone in one pool (issue 14, docs/security.md): how many wrong codes it
 * may still try, and when. Pure: the service reads the phone's failures under its advisory lock
 * and asks this what to do.
 */

/** The budget's window: any rolling 24 hours. */
export const DAILY_WINDOW_MS = 86_400_000;

export interface CodeBudgetPolicy {
  /** Wrong codes per rolling 24 hours; at this many no code is checked. */
  dailyFailures: number;
  /** Wrong codes in 24 hours after which every further code waits for a pause. */
  backoffAfterFailures: number;
  /** The first pause; it doubles with every further wrong code. 0 = no pause. */
  backoffBaseSeconds: number;
  /** The short lockout (`OTP_LOCKOUT_FAILURES` in `OTP_LOCKOUT_SECONDS`), kept beside the budget. */
  lockoutFailures: number;
  lockoutSeconds: number;
}

export type CodeBudget =
  | { kind: 'open' }
  /** No code is checked before `until` (the budget or the lockout is spent). */
  | { kind: 'spent'; until: Date }
  /** The next code is checked from `until` on (the pause after repeated wrong codes). */
  | { kind: 'paused'; until: Date };

/** How far back the failures must be read for `codeBudget`. */
export function budgetLookbackMs(policy: CodeBudgetPolicy): number {
  return Math.max(DAILY_WINDOW_MS, policy.lockoutSeconds * 1000);
}

/** The pause after `failures` wrong codes in 24 hours (0 before `backoffAfterFailures`). */
export function pauseMs(failures: number, policy: CodeBudgetPolicy): number {
  if (policy.backoffBaseSeconds === 0 || failures < policy.backoffAfterFailures) return 0;
  const doublings = Math.min(failures - policy.backoffAfterFailures, 20);
  return Math.min(policy.backoffBaseSeconds * 1000 * 2 ** doublings, DAILY_WINDOW_MS);
}

/**
 * The state of a phone's budget at `at`, from its failed verifications (`failures`, oldest
 * first, at least the last `budgetLookbackMs`). A failure counts in a window for exactly the
 * window's length: one at 10:00 counts until 10:00 the next day, and not from then on.
 */
export function codeBudget(failures: Date[], at: Date, policy: CodeBudgetPolicy): CodeBudget {
  const now = at.getTime();
  const lockoutMs = policy.lockoutSeconds * 1000;
  const times = failures.map((failure) => failure.getTime());
  const inDay = times.filter((t) => t > now - DAILY_WINDOW_MS);
  const recent = times.filter((t) => t > now - lockoutMs);

  // When the count in a window drops below its limit: the failure that must leave it has.
  let spentUntil = 0;
  if (inDay.length >= policy.dailyFailures) {
    spentUntil = inDay[inDay.length - policy.dailyFailures]! + DAILY_WINDOW_MS;
  }
  if (recent.length >= policy.lockoutFailures) {
    spentUntil = Math.max(spentUntil, recent[recent.length - policy.lockoutFailures]! + lockoutMs);
  }
  if (spentUntil > now) return { kind: 'spent', until: new Date(spentUntil) };

  const last = inDay.at(-1);
  const pause = pauseMs(inDay.length, policy);
  if (last !== undefined && pause > 0 && last + pause > now) {
    return { kind: 'paused', until: new Date(last + pause) };
  }
  return { kind: 'open' };
}

/**
 * "14:05 UTC", "14:05 UTC tomorrow" or "00:00 UTC on 2025-05-16": `until` rounded up to the
 * minute, so a person who comes back then is never early.
 */
export function retryTime(until: Date, at: Date): string {
  const rounded = new Date(Math.ceil(until.getTime() / 60_000) * 60_000).toISOString();
  const days = Math.round(
    (Date.parse(rounded.slice(0, 10)) - Date.parse(at.toISOString().slice(0, 10))) / 86_400_000,
  );
  const day = days <= 0 ? '' : days === 1 ? ' tomorrow' : ` on ${rounded.slice(0, 10)}`;
  return `${rounded.slice(11, 16)} UTC${day}`;
}

/** Whole seconds from `at` to `until` (at least 1), for the Retry-After header. */
export function retryAfterSeconds(until: Date, at: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - at.getTime()) / 1000));
}
