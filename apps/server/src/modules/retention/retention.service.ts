import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../errors.js';
import type { JobReport, JobRunOptions } from '../../lib/job-runner.js';
import type { AccountErasure } from '../privacy/account-erasure.js';
import type { MediaEraser } from '../privacy/media-eraser.js';
import type { SmsSender } from '../sms/sms.sender.js';
import { BATCH, type RetentionRepository } from './retention.repository.js';
import { accountRetentionSms, mediaRetentionSms, RETENTION_NOTICE_MS } from './retention-texts.js';

export interface RetentionServiceOptions {
  repository: RetentionRepository;
  mediaEraser: Pick<MediaEraser, 'erase'>;
  accountErasure: Pick<AccountErasure, 'erase'>;
  sms: SmsSender;
  /** MEDIA_RETENTION_DAYS: how long media, and accounts without a sign-in, are kept. */
  mediaDays: number;
  /** PAYMENT_RECORD_RETENTION_YEARS: how long payment records are kept (accounting law). */
  paymentRecordYears: number;
  now: () => Date;
  log: FastifyBaseLogger;
}

const DAY_MS = 86_400_000;

/** How long one instance holds a person while their notice SMS is sent. */
const LEASE_MS = 10 * 60_000;

/** A run stops after this many batches and leaves the rest to the next run (bounded work). */
const MAX_BATCHES = 200;

/**
 * Keeps data only as long as promised (docs/privacy.md), as three background jobs:
 *
 * - media-retention: photos and videos made MEDIA_RETENTION_DAYS ago get their owner one SMS
 *   48 hours before (one per person per run, naming how many items and from where), then are
 *   erased with their objects (MediaEraser) once the notice is 48 hours old.
 * - account-retention: accounts without a sign-in for MEDIA_RETENTION_DAYS get one SMS 48 hours
 *   before, then are erased (AccountErasure: payments kept without the person). A sign-in after
 *   the notice keeps the account. Staff (super users, product admins, members of a team) are
 *   never erased for inactivity.
 * - payment-record-retention: payment records older than PAYMENT_RECORD_RETENTION_YEARS go.
 *
 * Each run logs and reports counts only; a dry run reads and lists ids, and changes nothing.
 */
export class RetentionService {
  constructor(private readonly options: RetentionServiceOptions) {}

  private get retentionMs(): number {
    return this.options.mediaDays * DAY_MS;
  }

  /** The media-retention job's run. */
  async media({ dryRun }: JobRunOptions): Promise<JobReport> {
    const { repository, now } = this.options;
    const at = now();
    // Notices go out 48 hours before an item reaches its retention.
    const noticeDue = new Date(at.getTime() - this.retentionMs + RETENTION_NOTICE_MS);
    const madeBefore = new Date(at.getTime() - this.retentionMs);
    const noticedBefore = new Date(at.getTime() - RETENTION_NOTICE_MS);

    if (dryRun) {
      const people = await repository.mediaNoticePeople(noticeDue, at);
      const due = await repository.mediaDueForDeletion(madeBefore, noticedBefore);
      // Captures whose items are all gone already (those of the items above go on the next run).
      const captures = await repository.closedCapturesPast(madeBefore, true);
      return {
        counts: {
          notices: people.length,
          mediaToErase: due.length,
          capturesToDelete: captures.length,
        },
        plan: [
          ...people.map((id) => `user ${id}: would be told by SMS which items will be deleted`),
          ...due.map(
            (id) => `media ${id}: past retention and noticed 48 hours ago; would be erased`,
          ),
          ...captures.map((id) => `capture ${id}: past retention, no item left; would be deleted`),
          ...([people, due, captures].some((list) => list.length === BATCH)
            ? ['… and possibly more']
            : []),
        ],
      };
    }

    const counts = {
      notices: 0,
      noticesFailed: 0,
      media: 0,
      likes: 0,
      comments: 0,
      objects: 0,
      captures: 0,
    };
    for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
      const people = await repository.mediaNoticePeople(noticeDue, at);
      if (people.length === 0) break;
      for (const userId of people) {
        const outcome = await this.sendMediaNotice(userId, noticeDue);
        if (outcome === 'sent') counts.notices += 1;
        if (outcome === 'failed') counts.noticesFailed += 1;
      }
      if (people.length < BATCH || counts.noticesFailed > 0) break;
    }
    for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
      const due = await repository.mediaDueForDeletion(madeBefore, noticedBefore);
      if (due.length === 0) break;
      const erased = await this.options.mediaEraser.erase(due);
      counts.media += erased.media;
      counts.likes += erased.likes;
      counts.comments += erased.comments;
      counts.objects += erased.objects;
      if (due.length < BATCH) break;
    }
    // The capture records of what is gone: who was at which booth when is kept no longer.
    for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
      const deleted = await repository.closedCapturesPast(madeBefore, false);
      counts.captures += deleted.length;
      if (deleted.length < BATCH) break;
    }
    return { counts };
  }

  /** One person's media notice: claimed, sent, recorded. */
  private async sendMediaNotice(
    userId: number,
    noticeDue: Date,
  ): Promise<'sent' | 'skipped' | 'failed'> {
    const { repository, sms, now, log, mediaDays } = this.options;
    const at = now();
    const notice = await repository.claimMediaNotice(
      userId,
      noticeDue,
      at,
      new Date(at.getTime() + LEASE_MS),
    );
    if (!notice) return 'skipped';
    if (notice.photos + notice.videos === 0) {
      // Nothing downloadable (items never uploaded, or another instance was first): those
      // items are noticed without an SMS and go with the rest.
      await repository.mediaNoticeSent(userId, notice.ids, at);
      return 'skipped';
    }
    try {
      await sms.send({
        phone: notice.phone,
        text: mediaRetentionSms({
          photos: notice.photos,
          videos: notice.videos,
          venues: notice.venues,
          deleteOn: new Date(at.getTime() + RETENTION_NOTICE_MS),
          retentionDays: mediaDays,
        }),
      });
    } catch (error) {
      // Nothing is recorded, so the next run sends it (and the deletion waits for it).
      log.warn({ err: error, userId }, 'media retention notice not sent; will retry');
      await repository.releaseMediaNotice(userId);
      return 'failed';
    }
    await repository.mediaNoticeSent(userId, notice.ids, now());
    return 'sent';
  }

  /** The account-retention job's run. */
  async accounts({ dryRun }: JobRunOptions): Promise<JobReport> {
    const { repository, now } = this.options;
    const at = now();
    const noticeDue = new Date(at.getTime() - this.retentionMs + RETENTION_NOTICE_MS);
    const usedBefore = new Date(at.getTime() - this.retentionMs);
    const noticedBefore = new Date(at.getTime() - RETENTION_NOTICE_MS);

    if (dryRun) {
      const people = await repository.accountNoticePeople(noticeDue, at);
      const due = await repository.accountsDueForErasure(usedBefore, noticedBefore);
      return {
        counts: { notices: people.length, accountsToErase: due.length },
        plan: [
          ...people.map((id) => `user ${id}: no sign-in for too long; would be told by SMS`),
          ...due.map((id) => `user ${id}: noticed 48 hours ago, not back since; would be erased`),
          ...(people.length === BATCH || due.length === BATCH ? ['… and possibly more'] : []),
        ],
      };
    }

    const counts = {
      notices: 0,
      noticesFailed: 0,
      accounts: 0,
      accountsDeferred: 0,
      media: 0,
      objects: 0,
      paymentsAnonymised: 0,
    };
    for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
      const people = await repository.accountNoticePeople(noticeDue, at);
      if (people.length === 0) break;
      for (const userId of people) {
        const outcome = await this.sendAccountNotice(userId, noticeDue);
        if (outcome === 'sent') counts.notices += 1;
        if (outcome === 'failed') counts.noticesFailed += 1;
      }
      if (people.length < BATCH || counts.noticesFailed > 0) break;
    }
    const seen = new Set<number>();
    for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
      const due = (await repository.accountsDueForErasure(usedBefore, noticedBefore)).filter(
        (id) => !seen.has(id),
      );
      if (due.length === 0) break;
      for (const userId of due) {
        seen.add(userId);
        const erased = await this.eraseAccount(userId, usedBefore, noticedBefore);
        if (erased === 'deferred') counts.accountsDeferred += 1;
        else if (erased) {
          counts.accounts += 1;
          counts.media += erased.media;
          counts.objects += erased.objects;
          counts.paymentsAnonymised += erased.paymentsAnonymised;
        }
      }
    }
    return { counts };
  }

  private async sendAccountNotice(
    userId: number,
    noticeDue: Date,
  ): Promise<'sent' | 'skipped' | 'failed'> {
    const { repository, sms, now, log, mediaDays } = this.options;
    const at = now();
    const notice = await repository.claimAccountNotice(
      userId,
      noticeDue,
      at,
      new Date(at.getTime() + LEASE_MS),
    );
    if (!notice) return 'skipped';
    try {
      await sms.send({
        phone: notice.phone,
        text: accountRetentionSms({
          deleteOn: new Date(at.getTime() + RETENTION_NOTICE_MS),
          retentionDays: mediaDays,
          items: notice.items,
        }),
      });
    } catch (error) {
      log.warn({ err: error, userId }, 'account retention notice not sent; will retry');
      await repository.releaseAccountNotice(userId);
      return 'failed';
    }
    await repository.accountNoticeSent(userId, noticeDue, now());
    return 'sent';
  }

  /**
   * Erases one inactive account, re-checked with its row locked (a sign-in since the list was
   * read keeps it, however close to the erasure it lands). 'deferred' while a payment of it is
   * still with the provider (the next run tries again); null when it was no longer due or
   * already gone (another instance erased it).
   */
  private async eraseAccount(userId: number, usedBefore: Date, noticedBefore: Date) {
    const { repository, accountErasure, log } = this.options;
    try {
      return await accountErasure.erase(userId, {
        reason: 'inactive',
        onlyIf: (tx) => repository.stillDueForErasure(userId, usedBefore, noticedBefore, tx),
      });
    } catch (error) {
      if (error instanceof AppError && error.code === 'conflict') {
        log.info({ userId }, 'inactive account has a payment in progress; erased on a later run');
        return 'deferred' as const;
      }
      throw error;
    }
  }

  /** The payment-record-retention job's run. */
  async paymentRecords({ dryRun }: JobRunOptions): Promise<JobReport> {
    const { repository, now, paymentRecordYears } = this.options;
    const madeBefore = new Date(now());
    madeBefore.setUTCFullYear(madeBefore.getUTCFullYear() - paymentRecordYears);
    if (dryRun) {
      const due = await repository.paymentRecordsDue(madeBefore);
      return {
        counts: { paymentRecords: due.length },
        plan: [
          ...due.map(
            (id) => `transaction ${id}: older than ${paymentRecordYears} years; would be deleted`,
          ),
          ...(due.length === BATCH ? ['… and possibly more'] : []),
        ],
      };
    }
    const counts = { paymentRecords: 0, ofErasedAccounts: 0 };
    for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
      const { deleted, anonymised } = await repository.deletePaymentRecords(madeBefore);
      counts.paymentRecords += deleted;
      counts.ofErasedAccounts += anonymised;
      if (deleted < BATCH) break;
    }
    return { counts };
  }
}
