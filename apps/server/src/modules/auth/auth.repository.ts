import type { Pool } from '@flashbooth/contracts';
import { and, asc, count, eq, gt, gte, isNull, lt, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.js';
import { otpCodes, otpEvents, refreshTokens, signInLinks } from '../../db/schema.js';

type OtpEventKind = (typeof otpEvents.$inferInsert)['kind'];

/** What the sign-in purge deleted (or, dry, would delete): counts only. */
export interface SignInPurgeCounts {
  throttlingEvents: number;
  codes: number;
  links: number;
  refreshTokens: number;
}

export class AuthRepository {
  constructor(private readonly db: Executor) {}

  with(executor: Executor): AuthRepository {
    return new AuthRepository(executor);
  }

  /** Serialises sign-in work on one phone of one pool until the transaction ends. */
  async lockPhone(pool: Pool, phone: string): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`otp:${pool}:${phone}`}))`);
  }

  /**
   * Serialises code sending across every phone and pool (the global hourly cap) until the
   * transaction ends. Taken after the phone's own lock, never before it.
   */
  async lockGlobalSends(): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtext('otp:global-sends'))`);
  }

  /** When the phone's verifications failed after `since`, oldest first. */
  async failureTimes(pool: Pool, phone: string, since: Date): Promise<Date[]> {
    const rows = await this.db
      .select({ at: otpEvents.createdAt })
      .from(otpEvents)
      .where(
        and(
          eq(otpEvents.pool, pool),
          eq(otpEvents.phone, phone),
          eq(otpEvents.kind, 'fail'),
          gt(otpEvents.createdAt, since),
        ),
      )
      .orderBy(asc(otpEvents.createdAt));
    return rows.map((row) => row.at);
  }

  /**
   * What a code send is decided on, in one statement (one round trip instead of four): the
   * phone's failed verifications after `failuresSince` (oldest first), its codes sent since
   * `windowStart` and the client address's, and the codes sent to anyone after `globalSince`
   * with when the oldest of them was.
   */
  async sendCounts(
    pool: Pool,
    phone: string,
    ip: string,
    since: { failuresSince: Date; windowStart: Date; globalSince: Date },
  ): Promise<{
    failures: Date[];
    phoneSends: number;
    ipSends: number;
    global: { count: number; oldest: Date | null };
  }> {
    const { failuresSince, windowStart, globalSince } = since;
    const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;
    const [row] = rowsOf<{
      failures: string[];
      phone_sends: number;
      ip_sends: number;
      global_sends: number;
      global_oldest: string | Date | null;
    }>(
      await this.db.execute(sql`
        select
          (select coalesce(json_agg(${otpEvents.createdAt} order by ${otpEvents.createdAt}), '[]')
             from ${otpEvents}
            where ${otpEvents.pool} = ${pool} and ${otpEvents.phone} = ${phone}
              and ${otpEvents.kind} = 'fail' and ${otpEvents.createdAt} > ${at(failuresSince)}
          ) as failures,
          (select count(*)::int from ${otpEvents}
            where ${otpEvents.pool} = ${pool} and ${otpEvents.phone} = ${phone}
              and ${otpEvents.kind} = 'send' and ${otpEvents.createdAt} >= ${at(windowStart)}
          ) as phone_sends,
          (select count(*)::int from ${otpEvents}
            where ${otpEvents.ip} = ${ip} and ${otpEvents.kind} = 'send'
              and ${otpEvents.createdAt} >= ${at(windowStart)}
          ) as ip_sends,
          global.n as global_sends,
          global.oldest as global_oldest
        from (
          select count(*)::int as n, min(${otpEvents.createdAt}) as oldest from ${otpEvents}
           where ${otpEvents.kind} = 'send' and ${otpEvents.createdAt} > ${at(globalSince)}
        ) as global
      `),
    );
    const oldest = row?.global_oldest ?? null;
    return {
      failures: (row?.failures ?? []).map((value) => new Date(value)),
      phoneSends: row?.phone_sends ?? 0,
      ipSends: row?.ip_sends ?? 0,
      global: { count: row?.global_sends ?? 0, oldest: oldest === null ? null : new Date(oldest) },
    };
  }

  async countIpEvents(ip: string, kind: OtpEventKind, since: Date) {
    const [row] = await this.db
      .select({ n: count() })
      .from(otpEvents)
      .where(and(eq(otpEvents.ip, ip), eq(otpEvents.kind, kind), gte(otpEvents.createdAt, since)));
    return row?.n ?? 0;
  }

  /** Serialises the sign-in link calls of one client address until the transaction ends. */
  async lockAddress(ip: string): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`link:${ip}`}))`);
  }

  async recordEvent(event: {
    pool: Pool;
    phone: string;
    ip: string;
    kind: OtpEventKind;
    at: Date;
  }) {
    await this.db.insert(otpEvents).values({
      pool: event.pool,
      phone: event.phone,
      ip: event.ip,
      kind: event.kind,
      createdAt: event.at,
    });
  }

  /**
   * Sign-in records no longer of use (the sign-in purge): throttling events older than any
   * window looks at, codes and links past their expiry, and refresh tokens past theirs (revoked
   * ones are kept until then, so a stolen token's reuse is still recognised). Deleted, or only
   * counted when `dryRun`; counts only.
   */
  async purgeSignInRecords(
    cut: { eventsBefore: Date; codesBefore: Date; linksBefore: Date; tokensBefore: Date },
    dryRun: boolean,
  ): Promise<SignInPurgeCounts> {
    const events = lt(otpEvents.createdAt, cut.eventsBefore);
    const codes = lt(otpCodes.expiresAt, cut.codesBefore);
    const links = lt(signInLinks.expiresAt, cut.linksBefore);
    const tokens = lt(refreshTokens.expiresAt, cut.tokensBefore);
    if (dryRun) {
      const n = (rows: { n: number }[]) => Number(rows[0]?.n ?? 0);
      return {
        throttlingEvents: n(await this.db.select({ n: count() }).from(otpEvents).where(events)),
        codes: n(await this.db.select({ n: count() }).from(otpCodes).where(codes)),
        links: n(await this.db.select({ n: count() }).from(signInLinks).where(links)),
        refreshTokens: n(await this.db.select({ n: count() }).from(refreshTokens).where(tokens)),
      };
    }
    return {
      throttlingEvents: (
        await this.db.delete(otpEvents).where(events).returning({ id: otpEvents.id })
      ).length,
      codes: (await this.db.delete(otpCodes).where(codes).returning({ phone: otpCodes.phone }))
        .length,
      links: (await this.db.delete(signInLinks).where(links).returning({ id: signInLinks.id }))
        .length,
      refreshTokens: (
        await this.db.delete(refreshTokens).where(tokens).returning({ id: refreshTokens.id })
      ).length,
    };
  }

  /** Stores a sign-in link by its token's hash. */
  async insertSignInLink(link: {
    pool: Pool;
    phone: string;
    tokenHash: string;
    expiresAt: Date;
    at: Date;
  }) {
    await this.db.insert(signInLinks).values({
      pool: link.pool,
      phone: link.phone,
      tokenHash: link.tokenHash,
      expiresAt: link.expiresAt,
      createdAt: link.at,
    });
  }

  /**
   * Uses up the pool's unused, unexpired link with this token hash and returns its phone, or null.
   * One statement: the row is locked by the UPDATE, and a second consumer waits for the first
   * and then finds `used_at` set, so one token gives one phone exactly once (on PGlite and
   * PostgreSQL alike, whatever the isolation level).
   */
  async consumeSignInLink(pool: Pool, tokenHash: string, at: Date): Promise<string | null> {
    const [row] = await this.db
      .update(signInLinks)
      .set({ usedAt: at })
      .where(
        and(
          eq(signInLinks.tokenHash, tokenHash),
          eq(signInLinks.pool, pool),
          isNull(signInLinks.usedAt),
          gt(signInLinks.expiresAt, at),
        ),
      )
      .returning({ phone: signInLinks.phone });
    return row?.phone ?? null;
  }

  /** Stores the phone's new code, replacing any earlier one. */
  async replaceCode(code: {
    pool: Pool;
    phone: string;
    codeHash: string;
    expiresAt: Date;
    at: Date;
  }) {
    await this.db
      .insert(otpCodes)
      .values({
        pool: code.pool,
        phone: code.phone,
        codeHash: code.codeHash,
        attempts: 0,
        expiresAt: code.expiresAt,
        createdAt: code.at,
      })
      .onConflictDoUpdate({
        target: [otpCodes.pool, otpCodes.phone],
        set: {
          codeHash: code.codeHash,
          attempts: 0,
          expiresAt: code.expiresAt,
          createdAt: code.at,
        },
      });
  }

  async findCode(pool: Pool, phone: string) {
    const [row] = await this.db
      .select()
      .from(otpCodes)
      .where(and(eq(otpCodes.pool, pool), eq(otpCodes.phone, phone)));
    return row;
  }

  async setAttempts(pool: Pool, phone: string, attempts: number) {
    await this.db
      .update(otpCodes)
      .set({ attempts })
      .where(and(eq(otpCodes.pool, pool), eq(otpCodes.phone, phone)));
  }

  async deleteCode(pool: Pool, phone: string) {
    await this.db.delete(otpCodes).where(and(eq(otpCodes.pool, pool), eq(otpCodes.phone, phone)));
  }

  async insertRefreshToken(token: {
    userId: number;
    pool: Pool;
    tokenHash: string;
    familyId: string;
    expiresAt: Date;
    at: Date;
  }) {
    await this.db.insert(refreshTokens).values({
      userId: token.userId,
      pool: token.pool,
      tokenHash: token.tokenHash,
      familyId: token.familyId,
      expiresAt: token.expiresAt,
      createdAt: token.at,
    });
  }

  /** Reads a refresh token row and locks it against a concurrent rotation. */
  async findRefreshTokenForUpdate(tokenHash: string) {
    const [row] = await this.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, tokenHash))
      .for('update');
    return row;
  }

  async revokeRefreshToken(id: number, at: Date) {
    await this.db
      .update(refreshTokens)
      .set({ revokedAt: at })
      .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.revokedAt)));
  }

  async revokeFamily(familyId: string, at: Date) {
    await this.db
      .update(refreshTokens)
      .set({ revokedAt: at })
      .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
  }
}
