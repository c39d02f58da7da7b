import { sql, type SQL } from 'drizzle-orm';
import { type Database, type Executor, rowsOf } from '../../db/client.js';

/** Rows handled per query; a run loops until a batch comes back short. */
export const BATCH = 500;

/** A person leased for their media-retention notice, with what the SMS says. */
export interface MediaNotice {
  userId: number;
  phone: string;
  /** Every item of theirs now due for a notice (uploaded or not). */
  ids: number[];
  photos: number;
  videos: number;
  /** The venues the uploaded items were made at (organization names). */
  venues: string[];
}

/** A person leased for their account-erasure notice. */
export interface AccountNotice {
  userId: number;
  phone: string;
  /** Their photos and videos, said in the SMS. */
  items: number;
}

const ts = (at: Date) => sql`${at.toISOString()}::timestamptz`;

/**
 * An account the retention jobs leave alone whatever its age: a super user, a product admin, or
 * a member of an organization (a venue's staff keep their access while they are on its team;
 * removed from every team, the account is treated as any other).
 */
const STAFF = sql`(u.is_super_user or u.is_flashbooth_admin
  or exists (select 1 from organization_members om where om.user_id = u.id))`;

/** The time an account was last used: its last sign-in or session refresh, else its creation. */
const LAST_USED = sql`coalesce(u.last_sign_in_at, u.created_at)`;

/**
 * The retention jobs' reads and claims. A notice is claimed per person with a lease column
 * (users.media_notice_lease_until / erasure_notice_lease_until, a conditional update), so only
 * one instance sends it; it is recorded only once sent (a crash before that leaves it to the
 * next run after the lease). Deletions claim their rows by deleting them (a second instance's
 * delete finds them gone) or with `FOR UPDATE SKIP LOCKED`.
 */
export class RetentionRepository {
  constructor(private readonly db: Database) {}

  // ---- media-retention -------------------------------------------------------------------

  /** People with items made before `dueBefore` and not yet noticed, not leased at `at`. */
  async mediaNoticePeople(dueBefore: Date, at: Date, limit = BATCH): Promise<number[]> {
    const rows = rowsOf<{ user_id: number }>(
      await this.db.execute(sql`
        select distinct m.user_id from media m join users u on u.id = m.user_id
         where m.created_at <= ${ts(dueBefore)} and m.retention_notice_at is null
           and (u.media_notice_lease_until is null or u.media_notice_lease_until <= ${ts(at)})
         order by m.user_id limit ${sql.raw(String(limit))}`),
    );
    return rows.map((row) => Number(row.user_id));
  }

  /**
   * Leases person `userId` until `leaseUntil` for their media notice and reads what it covers;
   * null when another instance holds the lease. An empty `ids` means nothing is due any more
   * (another instance sent it): release with `releaseMediaNotice`.
   */
  async claimMediaNotice(
    userId: number,
    dueBefore: Date,
    at: Date,
    leaseUntil: Date,
  ): Promise<MediaNotice | null> {
    const [person] = rowsOf<{ phone: string }>(
      await this.db.execute(sql`
        update users set media_notice_lease_until = ${ts(leaseUntil)}
         where id = ${userId}
           and (media_notice_lease_until is null or media_notice_lease_until <= ${ts(at)})
        returning phone`),
    );
    if (!person) return null;
    const items = rowsOf<{
      id: number;
      media_type: string;
      is_uploaded: boolean;
      venue: string | null;
    }>(
      await this.db.execute(sql`
        select m.id, m.media_type, m.is_uploaded, o.name as venue
          from media m left join organizations o on o.id = m.org_id
         where m.user_id = ${userId} and m.created_at <= ${ts(dueBefore)}
           and m.retention_notice_at is null
         order by m.created_at, m.id`),
    );
    const uploaded = items.filter((item) => item.is_uploaded);
    return {
      userId,
      phone: person.phone,
      ids: items.map((item) => Number(item.id)),
      photos: uploaded.filter((item) => item.media_type !== 'video').length,
      videos: uploaded.filter((item) => item.media_type === 'video').length,
      venues: uploaded.flatMap((item) => (item.venue ? [item.venue] : [])),
    };
  }

  /** The notice was sent at `sentAt`: its items are noticed, the person's lease ends. */
  async mediaNoticeSent(userId: number, ids: number[], sentAt: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (ids.length > 0) {
        await tx.execute(sql`
          update media set retention_notice_at = ${ts(sentAt)}
           where id in (${sql.join(
             ids.map((id) => sql`${id}`),
             sql`, `,
           )}) and retention_notice_at is null`);
      }
      await tx.execute(sql`update users set media_notice_lease_until = null where id = ${userId}`);
    });
  }

  /** Ends a person's media-notice lease without noticing anything (nothing was due). */
  async releaseMediaNotice(userId: number): Promise<void> {
    await this.db.execute(
      sql`update users set media_notice_lease_until = null where id = ${userId}`,
    );
  }

  /**
   * Items past retention (made before `madeBefore`) whose owner was told before
   * `noticedBefore`: the next batch to erase, oldest first.
   */
  async mediaDueForDeletion(
    madeBefore: Date,
    noticedBefore: Date,
    limit = BATCH,
  ): Promise<number[]> {
    const rows = rowsOf<{ id: number }>(
      await this.db.execute(sql`
        select id from media
         where retention_notice_at <= ${ts(noticedBefore)} and created_at <= ${ts(madeBefore)}
         order by retention_notice_at, id limit ${sql.raw(String(limit))}`),
    );
    return rows.map((row) => Number(row.id));
  }

  /**
   * Capture records (who, which booth, when, and a delivery failure's refund) made before
   * `madeBefore`, closed, and with no item left: deleted in a batch claimed with `FOR UPDATE
   * SKIP LOCKED` (their delivery failure goes with them; the payment keeps its refund), or only
   * listed when `dryRun`.
   */
  async closedCapturesPast(madeBefore: Date, dryRun: boolean, limit = BATCH): Promise<string[]> {
    const due = sql`select c.capture_id from captures c
       where c.created_at <= ${ts(madeBefore)} and c.state in ('delivered', 'failed')
         and not exists (select 1 from media m where m.capture_id = c.capture_id)
       order by c.created_at limit ${sql.raw(String(limit))}`;
    const rows = rowsOf<{ capture_id: string }>(
      await this.db.execute(
        dryRun
          ? due
          : sql`delete from captures where capture_id in (${due} for update skip locked)
              returning capture_id`,
      ),
    );
    return rows.map((row) => row.capture_id);
  }

  // ---- account-retention -----------------------------------------------------------------

  /** Accounts last used before `dueBefore`, not noticed, not staff, not leased at `at`. */
  async accountNoticePeople(dueBefore: Date, at: Date, limit = BATCH): Promise<number[]> {
    const rows = rowsOf<{ id: number }>(
      await this.db.execute(sql`
        select u.id from users u
         where ${LAST_USED} <= ${ts(dueBefore)} and u.erasure_notice_at is null and not ${STAFF}
           and (u.erasure_notice_lease_until is null or u.erasure_notice_lease_until <= ${ts(at)})
         order by ${LAST_USED}, u.id limit ${sql.raw(String(limit))}`),
    );
    return rows.map((row) => Number(row.id));
  }

  /**
   * Leases account `userId` for its erasure notice while it still qualifies; null when it no
   * longer does (signed in, noticed, staff) or another instance holds the lease.
   */
  async claimAccountNotice(
    userId: number,
    dueBefore: Date,
    at: Date,
    leaseUntil: Date,
  ): Promise<AccountNotice | null> {
    const [row] = rowsOf<{ phone: string; items: number }>(
      await this.db.execute(sql`
        update users u set erasure_notice_lease_until = ${ts(leaseUntil)}
         where u.id = ${userId} and ${LAST_USED} <= ${ts(dueBefore)}
           and u.erasure_notice_at is null and not ${STAFF}
           and (u.erasure_notice_lease_until is null or u.erasure_notice_lease_until <= ${ts(at)})
        returning u.phone,
          (select count(*) from media m where m.user_id = u.id and m.is_uploaded)::int as items`),
    );
    return row ? { userId, phone: row.phone, items: Number(row.items) } : null;
  }

  /**
   * The erasure notice was sent at `sentAt`: recorded, unless the person signed in meanwhile
   * (then there is nothing to erase); the lease ends either way.
   */
  async accountNoticeSent(userId: number, dueBefore: Date, sentAt: Date): Promise<void> {
    await this.db.execute(sql`
      update users u
         set erasure_notice_at = case
               when ${LAST_USED} <= ${ts(dueBefore)} then ${ts(sentAt)} else u.erasure_notice_at end,
             erasure_notice_lease_until = null
       where u.id = ${userId}`);
  }

  /** Ends an account's notice lease (the SMS could not be sent; the next run tries again). */
  async releaseAccountNotice(userId: number): Promise<void> {
    await this.db.execute(
      sql`update users set erasure_notice_lease_until = null where id = ${userId}`,
    );
  }

  /**
   * Accounts to erase now: told before `noticedBefore`, last used before `usedBefore` and not
   * since the notice (a sign-in after it clears the notice; this re-checks it), not staff.
   */
  async accountsDueForErasure(
    usedBefore: Date,
    noticedBefore: Date,
    limit = BATCH,
  ): Promise<number[]> {
    const rows = rowsOf<{ id: number }>(
      await this.db.execute(sql`
        select u.id from users u
         where u.erasure_notice_at <= ${ts(noticedBefore)}
           and ${LAST_USED} <= ${ts(usedBefore)} and ${LAST_USED} < u.erasure_notice_at
           and not ${STAFF}
         order by u.erasure_notice_at, u.id limit ${sql.raw(String(limit))}`),
    );
    return rows.map((row) => Number(row.id));
  }

  /** Whether account `userId` is still due for erasure (re-read just before erasing it). */
  async stillDueForErasure(
    userId: number,
    usedBefore: Date,
    noticedBefore: Date,
    db: Executor = this.db,
  ): Promise<boolean> {
    const rows = rowsOf<{ id: number }>(
      await db.execute(sql`
        select u.id from users u
         where u.id = ${userId} and u.erasure_notice_at <= ${ts(noticedBefore)}
           and ${LAST_USED} <= ${ts(usedBefore)} and ${LAST_USED} < u.erasure_notice_at
           and not ${STAFF}`),
    );
    return rows.length > 0;
  }

  // ---- payment-record-retention ----------------------------------------------------------

  /**
   * Payment records made before `madeBefore` that are settled (no payment or refund still with
   * the provider). Only read: the dry run's plan.
   */
  async paymentRecordsDue(madeBefore: Date, limit = BATCH): Promise<number[]> {
    const rows = rowsOf<{ id: number }>(
      await this.db.execute(sql`
        select t.id from payment_transactions t where ${this.settledBefore(madeBefore)}
         order by t.created_at, t.id limit ${sql.raw(String(limit))}`),
    );
    return rows.map((row) => Number(row.id));
  }

  /**
   * Deletes the next batch of settled payment records made before `madeBefore`, with their state
   * history and refunds (by cascade), claimed with `FOR UPDATE SKIP LOCKED` so two instances
   * delete different rows. Returns how many went and how many had no person any more.
   */
  async deletePaymentRecords(
    madeBefore: Date,
    limit = BATCH,
  ): Promise<{ deleted: number; anonymised: number }> {
    const rows = rowsOf<{ anonymised: boolean }>(
      await this.db.execute(sql`
        delete from payment_transactions where id in (
          select t.id from payment_transactions t where ${this.settledBefore(madeBefore)}
           order by t.created_at, t.id limit ${sql.raw(String(limit))}
           for update skip locked)
        returning user_id is null as anonymised`),
    );
    return { deleted: rows.length, anonymised: rows.filter((row) => row.anonymised).length };
  }

  private settledBefore(madeBefore: Date): SQL {
    return sql`t.created_at < ${ts(madeBefore)}
      and t.state not in ('PENDING', 'REFUND_PENDING')
      and not exists (select 1 from payment_refunds r
                       where r.transaction_id = t.id and r.state = 'PENDING')`;
  }
}
