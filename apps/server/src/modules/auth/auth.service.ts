import { randomUUID } from 'node:crypto';
import type { Pool, User } from '@flashbooth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { AppError } from '../../errors.js';
import type { SmsSender } from '../sms/sms.sender.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { UsersService } from '../users/users.service.js';
import type { AccessTokens } from '../../security/access-tokens.js';
import {
  generateCode,
  generateRefreshToken,
  hashCode,
  safeEqualHex,
  sha256Hex,
} from './auth.crypto.js';
import type { AuthRepository } from './auth.repository.js';
import {
  budgetLookbackMs,
  type CodeBudget,
  codeBudget,
  retryAfterSeconds,
  retryTime,
} from './code-budget.js';

/** Code lifetimes, attempt, sending and lockout limits (configuration, see README). */
export type AuthPolicy = Config['auth'];

/** The window of OTP_GLOBAL_HOURLY_LIMIT. */
const GLOBAL_WINDOW_MS = 3_600_000;
/** The share of OTP_GLOBAL_HOURLY_LIMIT at which a warning is logged. */
const GLOBAL_WARNING_SHARE = 0.8;

/** A 429 that says when to come back; the routes send the seconds as `Retry-After`. */
export class RetryLaterError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('too_many_attempts', message);
  }
}

export interface IssuedSession {
  accessToken: string;
  expiresIn: number;
  refreshToken: string;
  refreshExpiresAt: Date;
  user: User;
}

const TOO_MANY_SENDS = 'Too many codes were requested. Please wait a few minutes and try again.';
const TOO_MANY_ATTEMPTS = 'Too many attempts. Please try again later.';
const WRONG_CODES = (when: string) =>
  `Too many wrong codes for this number. Try again after ${when}.`;
const SENDING_PAUSED = (when: string) =>
  `We cannot send more sign-in codes right now. Please try again after ${when}.`;

/** "+91", "+91 or +94", "+91, +94 or +977". */
function orList(items: string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

type VerifyOutcome =
  | { kind: 'ok'; userId: number }
  | { kind: 'expired' }
  /** A wrong code; `after` is the budget once it is counted. */
  | { kind: 'mismatch'; at: Date; after: CodeBudget }
  /** A wrong code that used up the code's tries (or the phone's budget). */
  | { kind: 'exhausted'; at: Date; after: CodeBudget }
  /** No code was checked: the budget is spent or paused. */
  | { kind: 'refused'; at: Date; budget: Exclude<CodeBudget, { kind: 'open' }> };

/**
 * Phone + one-time-code sign-in for one pool. Every step that reads and changes a phone's
 * code or counters holds that phone's advisory lock, so concurrent requests cannot race
 * past the attempt or sending limits.
 */
export class AuthService {
  constructor(
    private readonly deps: {
      db: Database;
      auth: AuthRepository;
      users: UsersRepository;
      usersService: UsersService;
      sms: SmsSender;
      tokens: AccessTokens;
      otpKey: Buffer;
      policy: AuthPolicy;
      now: () => Date;
      log: FastifyBaseLogger;
    },
  ) {}

  async signIn(pool: Pool, phone: string, ip: string): Promise<void> {
    this.assertAllowedCountry(phone);
    const user = await this.deps.users.findByPhone(pool, phone);
    if (!user) {
      throw new AppError('user_not_found', 'No account was found for this number. Please sign up.');
    }
    await this.sendCode(pool, phone, ip);
  }

  async signUp(pool: Pool, phone: string, name: string, ip: string): Promise<void> {
    this.assertAllowedCountry(phone);
    const created = await this.deps.db.transaction(async (tx) => {
      await this.deps.auth.with(tx).lockPhone(pool, phone);
      // Refuse before creating anything when sending would be refused anyway: sign-up sends
      // through the same per-phone, per-address and global counters as sign-in.
      await this.assertMaySend(this.deps.auth.with(tx), pool, phone, ip, this.deps.now());
      return this.deps.users.with(tx).create({ pool, phone, name });
    });
    if (!created) {
      throw new AppError('phone_registered', 'This phone number is already registered.');
    }
    await this.sendCode(pool, phone, ip);
  }

  /** SMS cost: codes go only to the configured country calling codes (400 otherwise). */
  private assertAllowedCountry(phone: string): void {
    const codes = this.deps.policy.allowedCountryCodes;
    if (!codes.some((code) => phone.startsWith(code))) {
      throw new AppError(
        'validation_error',
        `Sign-in codes can only be sent to numbers starting with ${orList(codes)}.`,
      );
    }
  }

  /** The phone's code budget at `at` (under the phone's lock for a decision that sticks). */
  private async budgetOf(repo: AuthRepository, pool: Pool, phone: string, at: Date) {
    const since = new Date(at.getTime() - budgetLookbackMs(this.deps.policy));
    const failures = await repo.failureTimes(pool, phone, since);
    return { failures, budget: codeBudget(failures, at, this.deps.policy) };
  }

  /**
   * Refuses a code the limits do not allow: a spent code budget (no code could be checked), the
   * phone's and the address's sending limits, and the global hourly cap. Returns the codes sent
   * in the last hour by everyone.
   */
  private async assertMaySend(
    repo: AuthRepository,
    pool: Pool,
    phone: string,
    ip: string,
    at: Date,
  ): Promise<number> {
    const { policy } = this.deps;
    const { budget } = await this.budgetOf(repo, pool, phone, at);
    if (budget.kind === 'spent') {
      throw new RetryLaterError(
        WRONG_CODES(retryTime(budget.until, at)),
        retryAfterSeconds(budget.until, at),
      );
    }
    const windowStart = new Date(at.getTime() - policy.sendWindowSeconds * 1000);
    if (
      (await repo.countPhoneEvents(pool, phone, 'send', windowStart)) >= policy.sendLimitPerPhone
    ) {
      throw new AppError('too_many_attempts', TOO_MANY_SENDS);
    }
    if ((await repo.countIpSends(ip, windowStart)) >= policy.sendLimitPerIp) {
      throw new AppError('too_many_attempts', TOO_MANY_SENDS);
    }
    const global = await repo.globalSends(new Date(at.getTime() - GLOBAL_WINDOW_MS));
    if (global.count >= policy.globalHourlySendLimit) {
      const until = new Date((global.oldest ?? at).getTime() + GLOBAL_WINDOW_MS);
      throw new RetryLaterError(SENDING_PAUSED(retryTime(until, at)), retryAfterSeconds(until, at));
    }
    return global.count;
  }

  /** Logs the sends that bring the last hour to 80% and to 100% of the global cap. */
  private reportGlobalSends(sentInHour: number): void {
    const limit = this.deps.policy.globalHourlySendLimit;
    const warning = Math.ceil(limit * GLOBAL_WARNING_SHARE);
    if (sentInHour === limit) {
      this.deps.log.error(
        { sentInLastHour: sentInHour, limit },
        'sign-in codes: OTP_GLOBAL_HOURLY_LIMIT reached; no more codes are sent until the hour moves on',
      );
    } else if (sentInHour === warning) {
      this.deps.log.warn(
        { sentInLastHour: sentInHour, limit },
        'sign-in codes: 80% of OTP_GLOBAL_HOURLY_LIMIT sent in the last hour',
      );
    }
  }

  /** Issues a new code (replacing any earlier one) and sends it by SMS. */
  private async sendCode(pool: Pool, phone: string, ip: string): Promise<void> {
    const { policy, now } = this.deps;
    const code = generateCode();
    const sentInHour = await this.deps.db.transaction(async (tx) => {
      const repo = this.deps.auth.with(tx);
      await repo.lockPhone(pool, phone);
      // Every instance's sends are counted one at a time, so the global cap holds exactly.
      await repo.lockGlobalSends();
      const at = now();
      const sentBefore = await this.assertMaySend(repo, pool, phone, ip, at);
      await repo.replaceCode({
        pool,
        phone,
        codeHash: hashCode(this.deps.otpKey, pool, phone, code),
        expiresAt: new Date(at.getTime() + policy.otpTtlSeconds * 1000),
        at,
      });
      await repo.recordEvent({ pool, phone, ip, kind: 'send', at });
      return sentBefore + 1;
    });
    this.reportGlobalSends(sentInHour);
    const minutes = Math.max(1, Math.round(policy.otpTtlSeconds / 60));
    try {
      await this.deps.sms.send({
        phone,
        code,
        text: `${code} is your Flashbooth sign-in code. It expires in ${minutes} minutes. Never share it with anyone.`,
      });
    } catch (error) {
      this.deps.log.error({ err: error, provider: this.deps.sms.kind }, 'sms send failed');
      throw new AppError('service_unavailable', 'Failed to send OTP. Please try again.', {
        cause: error,
      });
    }
  }

  /** Deletes throttling rows older than any window still looks at (run periodically). */
  async pruneEvents(): Promise<void> {
    const { policy } = this.deps;
    const longestWindowMs = Math.max(
      policy.sendWindowSeconds * 1000,
      budgetLookbackMs(policy),
      GLOBAL_WINDOW_MS,
    );
    // An hour's margin for clocks that differ between instances.
    await this.deps.auth.pruneEvents(
      new Date(this.deps.now().getTime() - longestWindowMs - GLOBAL_WINDOW_MS),
    );
  }

  async verify(pool: Pool, phone: string, code: string, ip: string): Promise<IssuedSession> {
    const { policy, now } = this.deps;
    // The outcome is committed first (attempt counts must survive the refusal), then reported.
    const outcome = await this.deps.db.transaction(async (tx): Promise<VerifyOutcome> => {
      const repo = this.deps.auth.with(tx);
      await repo.lockPhone(pool, phone);
      const at = now();
      // The budget is read and counted under the phone's lock: whatever the client address, and
      // however many requests arrive at once, no more codes are checked than it allows.
      const { failures, budget } = await this.budgetOf(repo, pool, phone, at);
      if (budget.kind !== 'open') return { kind: 'refused', at, budget };
      const stored = await repo.findCode(pool, phone);
      if (!stored) return { kind: 'expired' };
      if (stored.expiresAt.getTime() <= at.getTime()) {
        await repo.deleteCode(pool, phone);
        return { kind: 'expired' };
      }
      if (!safeEqualHex(stored.codeHash, hashCode(this.deps.otpKey, pool, phone, code))) {
        await repo.recordEvent({ pool, phone, ip, kind: 'fail', at });
        const after = codeBudget([...failures, at], at, policy);
        const attempts = stored.attempts + 1;
        if (attempts >= policy.otpMaxAttempts || after.kind === 'spent') {
          await repo.deleteCode(pool, phone);
          return { kind: 'exhausted', at, after };
        }
        await repo.setAttempts(pool, phone, attempts);
        return { kind: 'mismatch', at, after };
      }
      await repo.deleteCode(pool, phone);
      const user = await this.deps.users.with(tx).findByPhone(pool, phone);
      return user ? { kind: 'ok', userId: user.id } : { kind: 'expired' };
    });

    switch (outcome.kind) {
      case 'refused':
        throw this.wrongCodes(outcome.budget.until, outcome.at);
      case 'exhausted':
        if (outcome.after.kind === 'spent') {
          // Once per phone and day at most: worth a look when many phones show up here.
          this.deps.log.warn(
            { pool, phoneEnding: phone.slice(-4), until: outcome.after.until.toISOString() },
            'sign-in code budget spent; no code is checked for this phone until then',
          );
        }
        if (outcome.after.kind !== 'open') throw this.wrongCodes(outcome.after.until, outcome.at);
        throw new AppError('too_many_attempts', TOO_MANY_ATTEMPTS);
      case 'expired':
        throw new AppError(
          'code_expired',
          'This code has expired or was already used. Please request a new one.',
        );
      case 'mismatch':
        if (outcome.after.kind !== 'open') {
          const when = retryTime(outcome.after.until, outcome.at);
          throw new AppError(
            'code_mismatch',
            `Invalid OTP. You can try another code after ${when}.`,
          );
        }
        throw new AppError('code_mismatch', 'Invalid OTP. Please try again.');
      case 'ok':
        return this.issueSession(pool, outcome.userId, randomUUID());
    }
  }

  /** The 429 of a spent or paused code budget: when to try again, in words and in seconds. */
  private wrongCodes(until: Date, at: Date): RetryLaterError {
    return new RetryLaterError(WRONG_CODES(retryTime(until, at)), retryAfterSeconds(until, at));
  }

  private async issueSession(pool: Pool, userId: number, familyId: string): Promise<IssuedSession> {
    const at = this.deps.now();
    const refreshToken = generateRefreshToken();
    const refreshExpiresAt = new Date(
      at.getTime() + this.deps.policy.refreshTokenTtlDays * 86_400_000,
    );
    await this.deps.auth.insertRefreshToken({
      userId,
      pool,
      tokenHash: sha256Hex(refreshToken),
      familyId,
      expiresAt: refreshExpiresAt,
      at,
    });
    const user = await this.deps.usersService.getDto(userId);
    return {
      accessToken: await this.deps.tokens.sign({ userId, pool }),
      expiresIn: this.deps.tokens.ttlSeconds,
      refreshToken,
      refreshExpiresAt,
      user,
    };
  }

  /**
   * Rotates a refresh token: the presented one is revoked and a new one of the same family is
   * issued. Presenting an already-rotated token revokes the whole family (it was copied).
   */
  async refresh(pool: Pool, presented: string | undefined): Promise<IssuedSession> {
    if (!presented) throw new AppError('invalid_token', 'Please sign in again.');
    const at = this.deps.now();
    const result = await this.deps.db.transaction(async (tx) => {
      const repo = this.deps.auth.with(tx);
      const row = await repo.findRefreshTokenForUpdate(sha256Hex(presented));
      if (!row || row.pool !== pool) return null;
      if (row.revokedAt) {
        await repo.revokeFamily(row.familyId, at);
        return 'reused' as const;
      }
      if (row.expiresAt.getTime() <= at.getTime()) return null;
      await repo.revokeRefreshToken(row.id, at);
      return { userId: row.userId, familyId: row.familyId };
    });
    if (result === 'reused') {
      this.deps.log.warn({ pool }, 'refresh token reuse detected; session family revoked');
    }
    if (!result || result === 'reused')
      throw new AppError('invalid_token', 'Please sign in again.');
    return this.issueSession(pool, result.userId, result.familyId);
  }

  async signOut(pool: Pool, presented: string | undefined): Promise<void> {
    if (!presented) return;
    await this.deps.db.transaction(async (tx) => {
      const repo = this.deps.auth.with(tx);
      const row = await repo.findRefreshTokenForUpdate(sha256Hex(presented));
      if (row && row.pool === pool) await repo.revokeFamily(row.familyId, this.deps.now());
    });
  }
}
