import {
  type DataExport,
  type DataExportStatus,
  dataExportFileName,
  ERASURE_CODE_SENDS_PER_HOUR,
  type ErasureCodeSent,
  type ErasureResult,
  type PrivacyActionList,
  PRIVACY_MESSAGES as M,
} from '@flashbooth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import type { DataExportRow, UserRow } from '../../db/schema.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import { toApiTimestamp } from '../../lib/time.js';
import type { AccessClaims } from '../../security/access-tokens.js';
import { generateCode, hashCode, safeEqualHex } from '../auth/auth.crypto.js';
import type { SmsSender } from '../sms/sms.sender.js';
import { MAX_URL_LIFETIME_SECONDS, type ObjectStorage } from '../storage/storage.js';
import type { UsersService } from '../users/users.service.js';
import type { AccountErasure, AccountErasureCounts } from './account-erasure.js';
import type { DataExportBuilder } from './data-export.js';
import type { PrivacyRepository } from './privacy.repository.js';

const HOUR_MS = 3_600_000;

/**
 * A person's rights over their data, asked by the person (visitor profile) or by a super user
 * on the person's request (console): a data export, and erasure of the account.
 *
 * Erasure by the person is confirmed by a fresh one-time code sent by SMS to the account's phone
 * (a signed-in session alone is not enough: a phone left unlocked must not delete an account).
 * The code is kept as a keyed hash, works once, for OTP_TTL_SECONDS and OTP_MAX_ATTEMPTS tries,
 * and at most ERASURE_CODE_SENDS_PER_HOUR are sent per account and hour.
 *
 * Staff actions on a person are for super users only: erasure cannot be undone and an export
 * holds everything about a person, so the narrowest existing role holds them. Every export and
 * erasure, by the person or by staff, is recorded in privacy_actions (ids and time only).
 */
export class PrivacyService {
  constructor(
    private readonly deps: {
      db: Database;
      repository: PrivacyRepository;
      builder: DataExportBuilder;
      erasure: AccountErasure;
      users: UsersService;
      storage: ObjectStorage;
      sms: SmsSender;
      codeKey: Buffer;
      codeTtlSeconds: number;
      codeMaxAttempts: number;
      now: () => Date;
      log: FastifyBaseLogger;
    },
  ) {}

  // ---- The person ----

  async exportStatus(claims: AccessClaims): Promise<DataExportStatus> {
    const me = await this.deps.users.caller(claims);
    return { current: await this.currentExport(me.id) };
  }

  async requestExport(claims: AccessClaims): Promise<DataExport> {
    const me = await this.deps.users.caller(claims);
    return this.startExport(me.id, me.id);
  }

  /** Sends a fresh code that confirms "Delete my account" to the account's own phone. */
  async sendErasureCode(claims: AccessClaims): Promise<ErasureCodeSent> {
    const me = await this.deps.users.caller(claims);
    const { repository, db, now } = this.deps;
    const code = generateCode();
    const at = now();
    const expiresAt = new Date(at.getTime() + this.deps.codeTtlSeconds * 1000);
    await db.transaction(async (tx) => {
      const previous = await repository.findErasureCode(tx, me.id, true);
      const windowOpen = previous && at.getTime() - previous.windowStartedAt.getTime() < HOUR_MS;
      const sends = windowOpen ? previous.sends + 1 : 1;
      if (sends > ERASURE_CODE_SENDS_PER_HOUR) {
        throw new AppError('rate_limited', M.codeSendLimit);
      }
      await repository.saveErasureCode(tx, {
        userId: me.id,
        codeHash: this.hash(me.id, code),
        expiresAt,
        sends,
        windowStartedAt: windowOpen ? previous.windowStartedAt : at,
      });
    });
    const minutes = Math.max(1, Math.round(this.deps.codeTtlSeconds / 60));
    try {
      await this.deps.sms.send({
        phone: me.phone,
        code,
        text: `${code} is your code to DELETE your Flashbooth account and all its photos. It expires in ${minutes} minutes. If you did not ask for this, ignore this message.`,
      });
    } catch (error) {
      this.deps.log.error({ err: error, userId: me.id }, 'erasure code sms failed');
      throw new AppError('service_unavailable', M.deleteSendFailed, { cause: error });
    }
    return { sent_to: me.phone, expires_at: toApiTimestamp(expiresAt) };
  }

  /** "Delete my account": checks the code, then erases everything at once. */
  async eraseSelf(claims: AccessClaims, code: string): Promise<AccountErasureCounts> {
    const me = await this.deps.users.caller(claims);
    await this.spendCode(me.id, code);
    const counts = await this.deps.erasure.erase(me.id, { reason: 'self', actorId: me.id });
    // Null only when a second request erased it a moment earlier: the outcome is the same.
    return counts ?? emptyCounts();
  }

  /** Checks and spends the erasure code (once; wrong codes counted, then the code is dropped). */
  private async spendCode(userId: number, code: string): Promise<void> {
    const { repository, db, now } = this.deps;
    const outcome = await db.transaction(async (tx) => {
      const stored = await repository.findErasureCode(tx, userId, true);
      const at = now();
      if (!stored || stored.expiresAt.getTime() <= at.getTime()) return 'expired' as const;
      if (!safeEqualHex(stored.codeHash, this.hash(userId, code))) {
        const attempts = stored.attempts + 1;
        if (attempts >= this.deps.codeMaxAttempts) {
          await repository.spendErasureCode(tx, userId, at);
          return 'exhausted' as const;
        }
        await repository.setErasureAttempts(tx, userId, attempts);
        return 'wrong' as const;
      }
      await repository.spendErasureCode(tx, userId, at);
      return 'ok' as const;
    });
    // 422/429, not 401: the session is fine, only the code is not (a 401 would sign the app out).
    if (outcome === 'expired') throw new AppError('unprocessable', M.codeExpired);
    if (outcome === 'wrong') throw new AppError('unprocessable', M.codeWrong);
    if (outcome === 'exhausted') throw new AppError('too_many_attempts', M.codeTooManyAttempts);
  }

  private hash(userId: number, code: string): string {
    return hashCode(this.deps.codeKey, 'erase', String(userId), code);
  }

  // ---- Staff, on a person's request ----

  async staffExportStatus(claims: AccessClaims, personId: number): Promise<DataExportStatus> {
    const person = await this.personForStaff(claims, personId);
    return { current: await this.currentExport(person.id) };
  }

  async staffRequestExport(claims: AccessClaims, personId: number): Promise<DataExport> {
    const staff = await this.superUser(claims);
    const person = await this.personForStaff(claims, personId);
    return this.startExport(person.id, staff.id);
  }

  async staffErase(claims: AccessClaims, personId: number): Promise<ErasureResult> {
    const staff = await this.superUser(claims);
    const person = await this.personForStaff(claims, personId);
    const counts = await this.deps.erasure.erase(person.id, { reason: 'staff', actorId: staff.id });
    if (!counts) throw notFound(M.personNotFound);
    return { user_id: person.id, counts: { ...counts } };
  }

  async actions(
    claims: AccessClaims,
    page: { limit: number; offset: number },
  ): Promise<PrivacyActionList> {
    await this.superUser(claims);
    const { items, total } = await this.deps.repository.actions(page);
    return {
      items: items.map((row) => ({
        id: row.id,
        actor_id: row.actorId,
        subject_id: row.subjectId,
        action: row.action,
        created_at: toApiTimestamp(row.createdAt),
      })),
      total_count: total,
    };
  }

  private async superUser(claims: AccessClaims): Promise<UserRow> {
    const me = await this.deps.users.caller(claims);
    if (!me.isSuperUser) {
      throw forbidden('Only super users can export or erase a person’s data.');
    }
    return me;
  }

  /** The visitor account staff act on (staff accounts are not handled from the console). */
  private async personForStaff(claims: AccessClaims, personId: number): Promise<UserRow> {
    await this.superUser(claims);
    const person = await this.deps.repository.findUser(personId);
    if (!person) throw notFound(M.personNotFound);
    if (person.pool !== 'regular') throw new AppError('unprocessable', M.staffOnlyVisitors);
    return person;
  }

  // ---- Shared ----

  private async startExport(userId: number, actorId: number): Promise<DataExport> {
    const at = this.deps.now();
    const { row, created } = await this.deps.repository.requestExport(
      userId,
      actorId === userId ? null : actorId,
      at,
    );
    if (created) {
      await this.deps.repository.recordAction(this.deps.db, {
        actorId,
        subjectId: userId,
        action: 'export',
        at,
      });
      this.deps.log.info({ exportId: row.id, userId, actorId }, 'data export requested');
    }
    this.deps.builder.kick();
    return this.toDto(row);
  }

  private async currentExport(userId: number): Promise<DataExport | null> {
    const row = await this.deps.repository.latestExport(userId);
    return row ? this.toDto(row) : null;
  }

  /** A ready export past its expiry reads as expired even before the job deleted its ZIP. */
  private async toDto(row: DataExportRow): Promise<DataExport> {
    const now = this.deps.now();
    const live =
      row.state === 'ready' &&
      row.objectKey !== null &&
      row.expiresAt !== null &&
      row.expiresAt > now;
    const state = row.state === 'ready' && !live ? 'expired' : row.state;
    let downloadUrl: string | null = null;
    if (live && row.objectKey && row.expiresAt && row.readyAt) {
      const seconds = Math.ceil((row.expiresAt.getTime() - now.getTime()) / 1000);
      downloadUrl = await this.deps.storage.presignDownload(
        row.objectKey,
        Math.min(Math.max(seconds, 1), MAX_URL_LIFETIME_SECONDS),
        dataExportFileName(toApiTimestamp(row.readyAt)),
      );
    }
    return {
      id: row.id,
      state,
      requested_at: toApiTimestamp(row.createdAt),
      requested_by_staff: row.requestedBy !== null,
      ready_at: row.readyAt ? toApiTimestamp(row.readyAt) : null,
      expires_at: row.expiresAt ? toApiTimestamp(row.expiresAt) : null,
      size_bytes: state === 'ready' ? row.sizeBytes : null,
      item_count: row.itemCount,
      download_url: downloadUrl,
    };
  }
}

function emptyCounts(): AccountErasureCounts {
  return {
    media: 0,
    likes: 0,
    comments: 0,
    objects: 0,
    sessions: 0,
    passkeys: 0,
    signInRecords: 0,
    invitations: 0,
    exports: 0,
    creditEntries: 0,
    paymentsAnonymised: 0,
  };
}
