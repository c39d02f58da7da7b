import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, like as sqlLike } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import {
  captures,
  media,
  mediaComments,
  mediaLikes,
  organizationMembers,
  otpCodes,
  passkeySpentChallenges,
  paymentTransactions,
  refreshTokens,
  signInLinks,
  smsOutbox,
  users,
} from '../../src/db/schema.js';
import { runJobsCommand } from '../../src/jobs-cli.js';
import { databaseTargets } from '../databases.js';
import { createOrg, newPhone, signedIn, startApp, type TestApp } from '../harness.js';
import { ScriptedLink } from '../media-fixtures.js';
import { comment, like, payment, privacyApp, storedItem } from '../privacy/privacy-fixtures.js';

const DAY = 86_400;
const HOUR = 3_600;

/**
 * Data kept only as long as promised (modules/retention, jobs.ts): media and inactive accounts
 * get one SMS 48 hours ahead and are then deleted (objects in the store too); a sign-in after
 * the notice keeps the account; payment records go after PAYMENT_RECORD_RETENTION_YEARS; the
 * sign-in purge deletes what has expired and keeps what is live. Each with the clock moved, on
 * two instances at once where they could race, and the dry run changes nothing.
 */
describe.each(databaseTargets)('retention jobs on $name', ({ open }) => {
  let database: DatabaseHandle;
  let t: Awaited<ReturnType<typeof privacyApp>>;
  let second: TestApp;

  beforeAll(async () => {
    database = await open();
    t = await privacyApp(database);
    // A second instance on the same database and the same object store.
    second = await startApp(database, { DATA_DIR: t.config.dataDir });
  }, 60_000);
  afterAll(async () => {
    await second?.app.close();
    await t?.app.close();
    await t?.storage.close();
    await database?.close();
  });

  const instances = () => [t, second];
  const advance = (seconds: number) => {
    for (const instance of instances()) instance.clock.advance(seconds);
  };
  /** Runs `job` on both instances at once, twice each, as racing schedules would. */
  const runEverywhere = async (job: string) => {
    const reports = await Promise.all(
      instances().flatMap((instance) => [
        instance.app.jobs.runNow(job),
        instance.app.jobs.runNow(job),
      ]),
    );
    // A second run right after does nothing more.
    reports.push(...(await Promise.all(instances().map((i) => i.app.jobs.runNow(job)))));
    // A run asked for while one is in progress on the instance is that run: counted once.
    return [...new Set(reports)];
  };
  const total = (reports: { counts: Record<string, number> }[], kind: string) =>
    reports.reduce((sum, report) => sum + (report.counts[kind] ?? 0), 0);
  const smsTo = (phone: string, containing: string) =>
    database.db
      .select()
      .from(smsOutbox)
      .where(and(eq(smsOutbox.phone, phone), sqlLike(smsOutbox.text, `%${containing}%`)))
      .orderBy(asc(smsOutbox.id));
  const exists = async (key: string) => (await t.storage.head(key)) !== null;
  const mediaRows = (ids: number[]) =>
    database.db.select().from(media).where(inArray(media.id, ids));

  it('media past retention: one SMS per person 48 hours before, then gone from the database and the store', async () => {
    const orgId = await createOrg(database, 'Cafe Mocha');
    const asha = await signedIn(t.app, 'regular', newPhone(), 'Asha Old Photos');
    const ravi = await signedIn(t.app, 'regular', newPhone(), 'Ravi New Photos');
    const photo = await storedItem(database, t.storage, asha.userId, { orgId });
    const video = await storedItem(database, t.storage, asha.userId, { orgId, video: true });
    await like(database, photo.id, ravi.userId);
    await comment(database, photo.id, ravi.userId, 'Lovely');
    // Ravi's item is a month younger: not due in this test.
    const recent = await storedItem(database, t.storage, ravi.userId, { orgId });
    await database.db
      .update(media)
      .set({ createdAt: new Date(Date.now() + 30 * DAY * 1000) })
      .where(eq(media.id, recent.id));
    // The capture records behind the items (who was at which booth, when).
    await database.db.insert(captures).values(
      [photo, recent].map((item) => ({
        captureId: item.captureId,
        userId: item.userId,
        state: 'delivered' as const,
        deadlineAt: new Date(),
      })),
    );
    const captureRows = () =>
      database.db
        .select({ id: captures.captureId })
        .from(captures)
        .where(inArray(captures.captureId, [photo.captureId, recent.captureId]));

    // 47 hours before the year is up: not due for a notice yet.
    advance(365 * DAY - 49 * HOUR);
    await runEverywhere('media-retention');
    expect(await smsTo(asha.phone, 'will be deleted')).toEqual([]);

    // 47 hours before: the notice, once, for both items, whatever runs the job.
    advance(2 * HOUR);
    const noticeRuns = await runEverywhere('media-retention');
    expect(total(noticeRuns, 'notices')).toBe(1);
    const notices = await smsTo(asha.phone, 'will be deleted');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).toMatch(
      /^Flashbooth: 1 photo and 1 video from Cafe Mocha will be deleted on \d{1,2} [A-Z][a-z]{2} \d{4}, 1 year after they were taken\. To keep them, download them from My Media before then\.$/,
    );
    expect(await smsTo(ravi.phone, 'will be deleted')).toEqual([]);
    const noticed = await mediaRows([photo.id, video.id, recent.id]);
    expect(noticed.find((row) => row.id === photo.id)!.retentionNoticeAt).toBeInstanceOf(Date);
    expect(noticed.find((row) => row.id === video.id)!.retentionNoticeAt).toBeInstanceOf(Date);
    expect(noticed.find((row) => row.id === recent.id)!.retentionNoticeAt).toBeNull();

    // Past the year but the notice is not 48 hours old yet: kept.
    advance(47 * HOUR);
    await runEverywhere('media-retention');
    expect(await mediaRows([photo.id, video.id])).toHaveLength(2);
    expect(await exists(photo.s3Key)).toBe(true);
    expect(await captureRows()).toHaveLength(2);

    // 48 hours after the notice: erased, with every object, likes and comments; once.
    advance(2 * HOUR);
    const deleteRuns = await runEverywhere('media-retention');
    expect(total(deleteRuns, 'media')).toBe(2);
    expect(await mediaRows([photo.id, video.id])).toEqual([]);
    for (const key of [photo.s3Key, photo.lowresKey!, video.s3Key, video.lowresKey!]) {
      expect(await exists(key), key).toBe(false);
    }
    expect(
      await database.db.select().from(mediaLikes).where(eq(mediaLikes.mediaId, photo.id)),
    ).toEqual([]);
    expect(
      await database.db.select().from(mediaComments).where(eq(mediaComments.mediaId, photo.id)),
    ).toEqual([]);
    // Still one SMS, and Ravi's younger item is untouched.
    expect(await smsTo(asha.phone, 'will be deleted')).toHaveLength(1);
    expect(await mediaRows([recent.id])).toHaveLength(1);
    expect(await exists(recent.s3Key)).toBe(true);
    // The capture record goes with its last item; the younger one stays.
    expect(await captureRows()).toEqual([{ id: recent.captureId }]);
    // The media job deletes media only: the account stays.
    expect(await database.db.select().from(users).where(eq(users.id, asha.userId))).toHaveLength(1);
  });

  it('inactive accounts: notice once, erased 48 hours later with payments kept anonymised; a sign-in after the notice keeps the account; staff are left alone', async () => {
    const gone = await signedIn(t.app, 'regular', newPhone(), 'Kavya Inactive');
    const back = await signedIn(t.app, 'regular', newPhone(), 'Meera Returns');
    const item = await storedItem(database, t.storage, gone.userId);
    const paid = await payment(database, gone.userId, 'COMPLETED');
    const orgId = await createOrg(database, 'Staffed Venue');
    const [staff] = await database.db
      .insert(users)
      .values({ pool: 'enterprise', phone: newPhone(), name: 'Venue Staff' })
      .returning();
    await database.db
      .insert(organizationMembers)
      .values({ orgId, userId: staff!.id, role: 'member' });

    // The clock now stands well past the last test's; these accounts signed in "now", so move on
    // to 47 hours before their year without a sign-in is up.
    const inactiveFor = async (userId: number) => {
      const [row] = await database.db.select().from(users).where(eq(users.id, userId));
      return row;
    };
    const start = t.clock.now().getTime();
    const lastUse = (await inactiveFor(gone.userId))!.lastSignInAt!.getTime();
    advance((lastUse - start) / 1000 + 365 * DAY - 47 * HOUR);

    const noticeRuns = await runEverywhere('account-retention');
    expect(total(noticeRuns, 'notices')).toBeGreaterThanOrEqual(2);
    for (const person of [gone, back]) {
      const sms = await smsTo(person.phone, 'You have not signed in');
      expect(sms, person.phone).toHaveLength(1);
      expect(sms[0]!.text).toMatch(
        /^Flashbooth: You have not signed in for 1 year, so your Flashbooth account( and its \d+ photos? (or|and) videos?)? will be deleted on \d{1,2} [A-Z][a-z]{2} \d{4}\. To keep it, just sign in before then\. To keep a copy, use Download my data in your profile\.$/,
      );
    }
    expect((await inactiveFor(gone.userId))!.erasureNoticeAt).toBeInstanceOf(Date);
    expect((await inactiveFor(staff!.id))!.erasureNoticeAt).toBeNull();

    // Meera signs in after the notice: that cancels it.
    advance(HOUR);
    await signedIn(t.app, 'regular', back.phone);
    expect((await inactiveFor(back.userId))!.erasureNoticeAt).toBeNull();

    advance(48 * HOUR);
    const eraseRuns = await runEverywhere('account-retention');
    // Kavya's account is erased once; nothing of hers is left but the payment, without her.
    expect(
      eraseRuns.reduce((sum, report) => sum + (report.counts.accounts ?? 0), 0),
    ).toBeGreaterThanOrEqual(1);
    expect(await inactiveFor(gone.userId)).toBeUndefined();
    expect(await mediaRows([item.id])).toEqual([]);
    expect(await exists(item.s3Key)).toBe(false);
    expect(
      await database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, gone.userId)),
    ).toEqual([]);
    const [kept] = await database.db
      .select()
      .from(paymentTransactions)
      .where(eq(paymentTransactions.id, paid.id));
    expect(kept).toMatchObject({ userId: null, amountPaise: paid.amountPaise, state: 'COMPLETED' });
    // Meera and the staff member stay; no second notice for anyone.
    expect(await inactiveFor(back.userId)).toBeDefined();
    expect(await inactiveFor(staff!.id)).toBeDefined();
    expect(await smsTo(back.phone, 'You have not signed in')).toHaveLength(1);
  });

  it('purges expired sign-in codes, links, passkey challenges and refresh tokens, and keeps live ones', async () => {
    const at = t.clock.now();
    const past = new Date(at.getTime() - 2 * HOUR * 1000);
    const future = new Date(at.getTime() + HOUR * 1000);
    const person = await signedIn(t.app, 'regular');
    const [expiredPhone, livePhone] = [newPhone(), newPhone()];
    await database.db.insert(otpCodes).values([
      { pool: 'regular', phone: expiredPhone, codeHash: 'x', expiresAt: past },
      { pool: 'regular', phone: livePhone, codeHash: 'y', expiresAt: future },
    ]);
    const hash = () => randomUUID().replace(/-/g, '').padEnd(64, '0');
    const [expiredLink, liveLink] = [hash(), hash()];
    await database.db.insert(signInLinks).values([
      { pool: 'regular', phone: expiredPhone, tokenHash: expiredLink, expiresAt: past },
      { pool: 'regular', phone: livePhone, tokenHash: liveLink, expiresAt: future },
    ]);
    const [expiredChallenge, liveChallenge] = [randomUUID(), randomUUID()];
    await database.db.insert(passkeySpentChallenges).values([
      { challenge: expiredChallenge, expiresAt: past },
      { challenge: liveChallenge, expiresAt: future },
    ]);
    const [expiredToken, liveToken] = [hash(), hash()];
    await database.db.insert(refreshTokens).values([
      {
        userId: person.userId,
        pool: 'regular',
        tokenHash: expiredToken,
        familyId: randomUUID(),
        expiresAt: past,
        createdAt: past,
      },
      {
        userId: person.userId,
        pool: 'regular',
        tokenHash: liveToken,
        familyId: randomUUID(),
        expiresAt: future,
        createdAt: past,
      },
    ]);

    const reports = await runEverywhere('sign-in-purge');
    for (const kind of ['codes', 'links', 'passkeyChallenges', 'refreshTokens']) {
      expect(total(reports, kind), kind).toBeGreaterThanOrEqual(1);
    }

    const phones = [expiredPhone, livePhone];
    expect(
      (await database.db.select().from(otpCodes).where(inArray(otpCodes.phone, phones))).map(
        (row) => row.phone,
      ),
    ).toEqual([livePhone]);
    expect(
      (
        await database.db
          .select()
          .from(signInLinks)
          .where(inArray(signInLinks.tokenHash, [expiredLink, liveLink]))
      ).map((row) => row.tokenHash),
    ).toEqual([liveLink]);
    expect(
      (
        await database.db
          .select()
          .from(passkeySpentChallenges)
          .where(inArray(passkeySpentChallenges.challenge, [expiredChallenge, liveChallenge]))
      ).map((row) => row.challenge),
    ).toEqual([liveChallenge]);
    expect(
      (
        await database.db
          .select()
          .from(refreshTokens)
          .where(inArray(refreshTokens.tokenHash, [expiredToken, liveToken]))
      ).map((row) => row.tokenHash),
    ).toEqual([liveToken]);
    // The session signed in above is live and still works.
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/regular/auth/refresh',
      cookies: { flashbooth_refresh: person.refreshCookie },
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
  });

  it('deletes payment records after PAYMENT_RECORD_RETENTION_YEARS, with or without a person, and keeps younger and unsettled ones', async () => {
    const person = await signedIn(t.app, 'regular');
    const at = t.clock.now();
    const yearsAgo = (years: number) => {
      const when = new Date(at);
      when.setUTCFullYear(when.getUTCFullYear() - years);
      return when;
    };
    const old = await payment(database, person.userId, 'REFUNDED');
    const oldAnonymised = await payment(database, person.userId, 'COMPLETED');
    const oldPending = await payment(database, person.userId, 'PENDING');
    const younger = await payment(database, person.userId, 'COMPLETED');
    for (const [row, when] of [
      [old, yearsAgo(9)],
      [oldAnonymised, yearsAgo(10)],
      [oldPending, yearsAgo(9)],
      [younger, yearsAgo(7)],
    ] as const) {
      await database.db
        .update(paymentTransactions)
        .set({ createdAt: when, ...(row === oldAnonymised ? { userId: null } : {}) })
        .where(eq(paymentTransactions.id, row.id));
    }

    const reports = await runEverywhere('payment-record-retention');
    expect(total(reports, 'paymentRecords')).toBe(2);
    expect(total(reports, 'ofErasedAccounts')).toBe(1);
    const left = await database.db
      .select({ id: paymentTransactions.id })
      .from(paymentTransactions)
      .where(
        inArray(paymentTransactions.id, [old.id, oldAnonymised.id, oldPending.id, younger.id]),
      );
    expect(left.map((row) => row.id).sort()).toEqual([oldPending.id, younger.id].sort());
  });

  it('npm run jobs -- media-retention --dry-run prints the plan by ids and changes nothing', async () => {
    const person = await signedIn(t.app, 'regular');
    const item = await storedItem(database, t.storage, person.userId);
    const later = () => new Date(t.clock.now().getTime() + 400 * DAY * 1000);
    const out: string[] = [];
    const err: string[] = [];
    const status = await runJobsCommand(
      ['media-retention', '--dry-run'],
      { out: (line) => out.push(line), err: (line) => err.push(line) },
      {
        config: t.config,
        deps: { database, now: later, logger: false, deviceLink: new ScriptedLink() },
      },
    );
    expect(err).toEqual([]);
    expect(status).toBe(0);
    expect(out[0], out.join('\n')).toBe('media-retention (dry run: nothing was changed)');
    expect(out).toContain(
      `  user ${person.userId}: would be told by SMS which items will be deleted`,
    );
    // Ids only: no phone or name in the plan.
    expect(out.join('\n')).not.toContain(person.phone);
    // Nothing changed: no SMS, no notice recorded, the item and its file still there.
    expect(await smsTo(person.phone, 'will be deleted')).toEqual([]);
    const [row] = await mediaRows([item.id]);
    expect(row!.retentionNoticeAt).toBeNull();
    expect(await exists(item.s3Key)).toBe(true);
  });
});
