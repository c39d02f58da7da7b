import { randomUUID } from 'node:crypto';
import {
  CODE_BUDGET_SPENT,
  type CodeBudgetSpentDetails,
  type Pool,
  SIGN_IN_LINK_MESSAGES,
  signInLinkPath,
  type User,
} from '@flashbooth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { toApiTimestamp } from '../../lib/time.js';
import type { SmsSender } from '../sms/sms.sender.js';
import type { UsersRepository } from '../users/users.repository.js';
import { isPrivileged, type UsersService } from '../users/users.service.js';
import type { AccessTokens } from '../../security/access-tokens.js';
import {
  generateCode,
  generateLinkToken,
  generateRefreshToken,
  hashCode,
  safeEqualHex,
  sha256Hex,
} from './auth.crypto.js';
import type { AuthRepository, SignInPurgeCounts } from './auth.repository.js';
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

/**
 * How a person proved who they are. Every session is issued through `issueSession` with it, and
 * the sign-in policy (`assertSignInAllowed`) reads it; `refresh` continues a session already
 * issued.
 */
export type SignInMethod = 'code' | 'link' | 'passkey' | 'refresh';

/** REQUIRE_PASSKEY_FOR_MONEY_STAFF: a privileged staff member with a passkey signing in otherwise. */
export const PASSKEY_REQUIRED =
  'Your account signs in with a passkey. Choose "Sign in with a passkey" on the sign-in page.';

/**
 * The 429 of a spent code budget: besides the time to come back, whether this answer texted a
 * one-tap sign-in link (which works while the budget is spent). The routes send the details.
 */
export class CodeBudgetSpentError extends RetryLaterError {
  constructor(
    message: string,
    retryAfterSeconds: number,
    readonly details: CodeBudgetSpentDetails,
  ) {
    super(message, retryAfterSeconds);
  }
}

/** Where a sign-in SMS's link leads: the request's own site and the page to return to. */
export interface LinkTarget {
  /** The request's origin (`https://host`); PUBLIC_URL wins when it is set. */
  origin: string;
  /** A same-site path to open after sign-in (validated by the request schema). */
  next?: string | undefined;
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
const LINK_SENT = 'The sign-in link we have just texted you works even now.';
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
      /** PUBLIC_URL: the site sign-in links lead to; absent = the request's own origin. */
      publicUrl: string | undefined;
      /** Whether the account has a passkey (the passkeys module answers; REQUIRE_PASSKEY_FOR_MONEY_STAFF). */
      hasPasskey: (userId: number) => Promise<boolean>;
    },
  ) {}

  async signIn(pool: Pool, phone: string, ip: string, link: LinkTarget): Promise<void> {
    this.assertAllowedCountry(phone);
    const user = await this.deps.users.findByPhone(pool, phone);
    if (!user) {
      throw new AppError('user_not_found', 'No account was found for this number. Please sign up.');
    }
    // Early and only for the message: issueSession enforces it for every way in.
    await this.assertSignInAllowed(pool, user.id, 'code');
    await this.sendCode(pool, phone, ip, link);
  }

  async signUp(
    pool: Pool,
    phone: string,
    name: string,
    ip: string,
    link: LinkTarget,
  ): Promise<void> {
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
    await this.sendCode(pool, phone, ip, link);
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
   * Refuses an SMS the limits do not allow: the phone's and the address's sending limits and the
   * global hourly cap. Returns the codes sent in the last hour by everyone, and when the phone's
   * code budget is spent, until when: then the SMS carries only the sign-in link (no code could
   * be checked), and a refusal says that the budget is spent.
   */
  private async assertMaySend(
    repo: AuthRepository,
    pool: Pool,
    phone: string,
    ip: string,
    at: Date,
  ): Promise<{ sentBefore: number; spentUntil: Date | null }> {
    const { policy } = this.deps;
    const counts = await repo.sendCounts(pool, phone, ip, {
      failuresSince: new Date(at.getTime() - budgetLookbackMs(policy)),
      windowStart: new Date(at.getTime() - policy.sendWindowSeconds * 1000),
      globalSince: new Date(at.getTime() - GLOBAL_WINDOW_MS),
    });
    const budget = codeBudget(counts.failures, at, policy);
    const spentUntil = budget.kind === 'spent' ? budget.until : null;
    // With the budget spent, the person hears about the budget (and the link) first.
    const refuse = (error: AppError) =>
      spentUntil ? this.budgetSpent(spentUntil, at, false) : error;
    if (counts.phoneSends >= policy.sendLimitPerPhone) {
      throw refuse(new AppError('too_many_attempts', TOO_MANY_SENDS));
    }
    if (counts.ipSends >= policy.sendLimitPerIp) {
      throw refuse(new AppError('too_many_attempts', TOO_MANY_SENDS));
    }
    const { global } = counts;
    if (global.count >= policy.globalHourlySendLimit) {
      const until = new Date((global.oldest ?? at).getTime() + GLOBAL_WINDOW_MS);
      throw refuse(
        new RetryLaterError(SENDING_PAUSED(retryTime(until, at)), retryAfterSeconds(until, at)),
      );
    }
    return { sentBefore: global.count, spentUntil };
  }

  /**
   * The refusal of a spent code budget: in words and in seconds when codes are checked again,
   * and whether a sign-in link was just sent.
   */
  private budgetSpent(until: Date, at: Date, linkSent: boolean): CodeBudgetSpentError {
    const message = WRONG_CODES(retryTime(until, at));
    // Rounded up to the minute like the words, so the screen and the message agree.
    const retryAt = new Date(Math.ceil(until.getTime() / 60_000) * 60_000);
    return new CodeBudgetSpentError(
      linkSent ? `${message} ${LINK_SENT}` : message,
      retryAfterSeconds(until, at),
      { reason: CODE_BUDGET_SPENT, retry_at: toApiTimestamp(retryAt), link_sent: linkSent },
    );
  }

  /** The absolute address of a sign-in link: PUBLIC_URL when set, else the request's origin. */
  private linkUrl(pool: Pool, token: string, link: LinkTarget): string {
    const base = this.deps.publicUrl ?? link.origin.replace(/\/+$/, '');
    return `${base}${signInLinkPath(pool, token, link.next)}`;
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

  /**
   * Issues a new code (replacing any earlier one) and a one-tap sign-in link with the same
   * lifetime, and sends both by SMS. While the phone's code budget is spent no code could be
   * checked, so the SMS carries only the link, and the caller gets the budget's 429 saying so.
   */
  private async sendCode(pool: Pool, phone: string, ip: string, link: LinkTarget): Promise<void> {
    const { policy, now } = this.deps;
    const code = generateCode();
    const token = generateLinkToken();
    const { sentInHour, spentUntil, at } = await this.deps.db.transaction(async (tx) => {
      const repo = this.deps.auth.with(tx);
      await repo.lockPhone(pool, phone);
      // Every instance's sends are counted one at a time, so the global cap holds exactly.
      await repo.lockGlobalSends();
      const at = now();
      const { sentBefore, spentUntil } = await this.assertMaySend(repo, pool, phone, ip, at);
      const expiresAt = new Date(at.getTime() + policy.otpTtlSeconds * 1000);
      if (!spentUntil) {
        await repo.replaceCode({
          pool,
          phone,
          codeHash: hashCode(this.deps.otpKey, pool, phone, code),
          expiresAt,
          at,
        });
      }
      // Only the token's hash is stored; the link itself exists only in the SMS.
      await repo.insertSignInLink({ pool, phone, tokenHash: sha256Hex(token), expiresAt, at });
      await repo.recordEvent({ pool, phone, ip, kind: 'send', at });
      return { sentInHour: sentBefore + 1, spentUntil, at };
    });
    this.reportGlobalSends(sentInHour);
    const minutes = Math.max(1, Math.round(policy.otpTtlSeconds / 60));
    const url = this.linkUrl(pool, token, link);
    try {
      await this.deps.sms.send(
        spentUntil
          ? {
              phone,
              text: `Too many wrong codes were entered for your Flashbooth number, so codes work again after ${retryTime(spentUntil, at)}. Tap to sign in now: ${url} It expires in ${minutes} minutes. Never share it with anyone.`,
            }
          : {
              phone,
              code,
              text: `${code} is your Flashbooth sign-in code. It expires in ${minutes} minutes. Never share it with anyone. Or tap to sign in: ${url}`,
            },
      );
    } catch (error) {
      this.deps.log.error({ err: error, provider: this.deps.sms.kind }, 'sms send failed');
      throw new AppError('service_unavailable', 'Failed to send OTP. Please try again.', {
        cause: error,
      });
    }
    if (spentUntil) throw this.budgetSpent(spentUntil, at, true);
  }

  /**
   * The sign-in purge: throttling events older than any window still looks at, codes and
   * one-tap links an hour past their expiry (the hour covers clocks that differ between
   * instances; an expired one is refused before it is read), and refresh tokens past theirs.
   * `dryRun` only counts.
   */
  purgeExpired(options: { dryRun: boolean }): Promise<SignInPurgeCounts> {
    const { policy } = this.deps;
    const longestWindowMs = Math.max(
      policy.sendWindowSeconds * 1000,
      budgetLookbackMs(policy),
      GLOBAL_WINDOW_MS,
    );
    const now = this.deps.now().getTime();
    return this.deps.auth.purgeSignInRecords(
      {
        eventsBefore: new Date(now - longestWindowMs - GLOBAL_WINDOW_MS),
        codesBefore: new Date(now - GLOBAL_WINDOW_MS),
        linksBefore: new Date(now - GLOBAL_WINDOW_MS),
        tokensBefore: new Date(now),
      },
      options.dryRun,
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
        throw this.wrongCodes(outcome.budget, outcome.at);
      case 'exhausted':
        if (outcome.after.kind === 'spent') {
          // Once per phone and day at most: worth a look when many phones show up here.
          this.deps.log.warn(
            { pool, phoneEnding: phone.slice(-4), until: outcome.after.until.toISOString() },
            'sign-in code budget spent; no code is checked for this phone until then',
          );
        }
        if (outcome.after.kind !== 'open') throw this.wrongCodes(outcome.after, outcome.at);
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
        return this.issueSession(pool, outcome.userId, randomUUID(), 'code');
    }
  }

  /** The 429 of a spent or paused code budget: when to try again, in words and in seconds. */
  private wrongCodes(budget: Exclude<CodeBudget, { kind: 'open' }>, at: Date): RetryLaterError {
    if (budget.kind === 'spent') return this.budgetSpent(budget.until, at, false);
    return new RetryLaterError(
      WRONG_CODES(retryTime(budget.until, at)),
      retryAfterSeconds(budget.until, at),
    );
  }

  /**
   * POST auth/link: signs in with the token of a one-tap link from a sign-in SMS, answering
   * exactly like a code (`issueSession`, the same sign-in policy). The token is used up in one
   * statement, so two taps give one session. Not subject to the code budget: 256 random bits
   * cannot be guessed (docs/security.md). A link that signs nobody in is counted per client
   * address, and an address with `OTP_SEND_LIMIT_PER_IP` of them in the send window is refused.
   */
  async signInWithLink(pool: Pool, token: string, ip: string): Promise<IssuedSession> {
    const { policy, now } = this.deps;
    const outcome = await this.deps.db.transaction(async (tx) => {
      const repo = this.deps.auth.with(tx);
      await repo.lockAddress(ip);
      const at = now();
      const windowStart = new Date(at.getTime() - policy.sendWindowSeconds * 1000);
      if ((await repo.countIpEvents(ip, 'link_fail', windowStart)) >= policy.sendLimitPerIp) {
        return { kind: 'throttled' as const };
      }
      const phone = await repo.consumeSignInLink(pool, sha256Hex(token), at);
      const user = phone ? await this.deps.users.with(tx).findByPhone(pool, phone) : undefined;
      if (!phone || !user) {
        // No phone is known for a link that matches nothing.
        await repo.recordEvent({ pool, phone: phone ?? '', ip, kind: 'link_fail', at });
        return { kind: 'invalid' as const };
      }
      // The code sent with the link is no longer needed: nobody can go on guessing it.
      await repo.deleteCode(pool, phone);
      return { kind: 'ok' as const, userId: user.id };
    });
    if (outcome.kind === 'throttled') {
      throw new AppError('too_many_attempts', SIGN_IN_LINK_MESSAGES.tooManyTries);
    }
    if (outcome.kind === 'invalid') {
      throw new AppError('invalid_token', SIGN_IN_LINK_MESSAGES.invalid);
    }
    return this.issueSession(pool, outcome.userId, randomUUID(), 'link');
  }

  /**
   * The session of a person another module has proved (passkeys): exactly what a code sign-in
   * issues, under the same sign-in policy.
   */
  issueSessionFor(pool: Pool, userId: number, method: 'passkey'): Promise<IssuedSession> {
    return this.issueSession(pool, userId, randomUUID(), method);
  }

  /**
   * The sign-in policy, checked wherever a session is issued: the account must exist in this
   * pool, and with REQUIRE_PASSKEY_FOR_MONEY_STAFF a super user or product admin who has a passkey
   * signs in only with it (one without may still use a code or link, to add one).
   */
  private async assertSignInAllowed(pool: Pool, userId: number, method: SignInMethod) {
    const user = await this.deps.users.findById(userId);
    if (!user || user.pool !== pool) throw new AppError('unauthorized', 'Please sign in again.');
    if (method === 'passkey' || method === 'refresh') return;
    // Refunds and credit grants are for exactly these staff (payments, credits: privilegedCaller).
    const moneyStaff = pool === 'enterprise' && isPrivileged(user);
    if (
      moneyStaff &&
      this.deps.policy.requirePasskeyForMoneyStaff &&
      (await this.deps.hasPasskey(userId))
    ) {
      throw new AppError('forbidden', PASSKEY_REQUIRED);
    }
  }

  /** A new refresh token of `familyId`, written through `repo` (a rotation's transaction). */
  private async newRefreshToken(
    repo: AuthRepository,
    pool: Pool,
    userId: number,
    familyId: string,
    at: Date,
  ) {
    const refreshToken = generateRefreshToken();
    const refreshExpiresAt = new Date(
      at.getTime() + this.deps.policy.refreshTokenTtlDays * 86_400_000,
    );
    await repo.insertRefreshToken({
      userId,
      pool,
      tokenHash: sha256Hex(refreshToken),
      familyId,
      expiresAt: refreshExpiresAt,
      at,
    });
    return { refreshToken, refreshExpiresAt };
  }

  private async issueSession(
    pool: Pool,
    userId: number,
    familyId: string,
    method: SignInMethod,
    rotated?: { refreshToken: string; refreshExpiresAt: Date },
  ): Promise<IssuedSession> {
    await this.assertSignInAllowed(pool, userId, method);
    const at = this.deps.now();
    const { refreshToken, refreshExpiresAt } =
      rotated ?? (await this.newRefreshToken(this.deps.auth, pool, userId, familyId, at));
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
      // The successor is written in the same transaction: a concurrent reuse of `presented`
      // waits for this row lock and then revokes the family with the successor in it.
      const next = await this.newRefreshToken(repo, pool, row.userId, row.familyId, at);
      return { userId: row.userId, familyId: row.familyId, next };
    });
    if (result === 'reused') {
      this.deps.log.warn({ pool }, 'refresh token reuse detected; session family revoked');
    }
    if (!result || result === 'reused')
      throw new AppError('invalid_token', 'Please sign in again.');
    return this.issueSession(pool, result.userId, result.familyId, 'refresh', result.next);
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
