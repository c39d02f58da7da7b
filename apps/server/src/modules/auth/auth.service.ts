import { randomUUID } from 'node:crypto';
import type { Pool, User } from '@flashbooth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { AppError } from '../../errors.js';
import type { SmsSender } from '../sms/sms.sender.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { UsersService } from '../users/users.service.js';
import type { AccessTokens } from './access-tokens.js';
import {
  generateCode,
  generateRefreshToken,
  hashCode,
  safeEqualHex,
  sha256Hex,
} from './auth.crypto.js';
import type { AuthRepository } from './auth.repository.js';

/** Code lifetimes, attempt, sending and lockout limits (configuration, see README). */
export type AuthPolicy = Config['auth'];

export interface IssuedSession {
  accessToken: string;
  expiresIn: number;
  refreshToken: string;
  refreshExpiresAt: Date;
  user: User;
}

const TOO_MANY_SENDS = 'Too many codes were requested. Please wait a few minutes and try again.';
const TOO_MANY_ATTEMPTS = 'Too many attempts. Please try again later.';

type VerifyOutcome =
  | { kind: 'ok'; userId: number }
  | { kind: 'expired' }
  | { kind: 'mismatch' }
  | { kind: 'exhausted' }
  | { kind: 'locked' };

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

  private secondsAgo(seconds: number): Date {
    return new Date(this.deps.now().getTime() - seconds * 1000);
  }

  async signIn(pool: Pool, phone: string, ip: string): Promise<void> {
    const user = await this.deps.users.findByPhone(pool, phone);
    if (!user) {
      throw new AppError('user_not_found', 'No account was found for this number. Please sign up.');
    }
    await this.sendCode(pool, phone, ip);
  }

  async signUp(pool: Pool, phone: string, name: string, ip: string): Promise<void> {
    const created = await this.deps.db.transaction(async (tx) => {
      await this.deps.auth.with(tx).lockPhone(pool, phone);
      // Refuse before creating anything when sending would be refused anyway.
      await this.assertMaySend(this.deps.auth.with(tx), pool, phone, ip);
      return this.deps.users.with(tx).create({ pool, phone, name });
    });
    if (!created) {
      throw new AppError('phone_registered', 'This phone number is already registered.');
    }
    await this.sendCode(pool, phone, ip);
  }

  private async assertMaySend(repo: AuthRepository, pool: Pool, phone: string, ip: string) {
    const { policy } = this.deps;
    const failures = await repo.countPhoneEvents(
      pool,
      phone,
      'fail',
      this.secondsAgo(policy.lockoutSeconds),
    );
    if (failures >= policy.lockoutFailures)
      throw new AppError('too_many_attempts', TOO_MANY_ATTEMPTS);
    const windowStart = this.secondsAgo(policy.sendWindowSeconds);
    if (
      (await repo.countPhoneEvents(pool, phone, 'send', windowStart)) >= policy.sendLimitPerPhone
    ) {
      throw new AppError('too_many_attempts', TOO_MANY_SENDS);
    }
    if ((await repo.countIpSends(ip, windowStart)) >= policy.sendLimitPerIp) {
      throw new AppError('too_many_attempts', TOO_MANY_SENDS);
    }
  }

  /** Issues a new code (replacing any earlier one) and sends it by SMS. */
  private async sendCode(pool: Pool, phone: string, ip: string): Promise<void> {
    const { policy, now } = this.deps;
    const code = generateCode();
    await this.deps.db.transaction(async (tx) => {
      const repo = this.deps.auth.with(tx);
      await repo.lockPhone(pool, phone);
      await this.assertMaySend(repo, pool, phone, ip);
      const at = now();
      await repo.replaceCode({
        pool,
        phone,
        codeHash: hashCode(this.deps.otpKey, pool, phone, code),
        expiresAt: new Date(at.getTime() + policy.otpTtlSeconds * 1000),
        at,
      });
      await repo.recordEvent({ pool, phone, ip, kind: 'send', at });
    });
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
    await this.deps.auth.pruneEvents(
      this.secondsAgo(Math.max(policy.sendWindowSeconds, policy.lockoutSeconds) * 2),
    );
  }

  async verify(pool: Pool, phone: string, code: string, ip: string): Promise<IssuedSession> {
    const { policy, now } = this.deps;
    // The outcome is committed first (attempt counts must survive the refusal), then reported.
    const outcome = await this.deps.db.transaction(async (tx): Promise<VerifyOutcome> => {
      const repo = this.deps.auth.with(tx);
      await repo.lockPhone(pool, phone);
      const at = now();
      const failures = await repo.countPhoneEvents(
        pool,
        phone,
        'fail',
        this.secondsAgo(policy.lockoutSeconds),
      );
      if (failures >= policy.lockoutFailures) return { kind: 'locked' };
      const stored = await repo.findCode(pool, phone);
      if (!stored) return { kind: 'expired' };
      if (stored.expiresAt.getTime() <= at.getTime()) {
        await repo.deleteCode(pool, phone);
        return { kind: 'expired' };
      }
      if (!safeEqualHex(stored.codeHash, hashCode(this.deps.otpKey, pool, phone, code))) {
        await repo.recordEvent({ pool, phone, ip, kind: 'fail', at });
        const attempts = stored.attempts + 1;
        if (attempts >= policy.otpMaxAttempts) {
          await repo.deleteCode(pool, phone);
          return { kind: 'exhausted' };
        }
        await repo.setAttempts(pool, phone, attempts);
        return { kind: 'mismatch' };
      }
      await repo.deleteCode(pool, phone);
      const user = await this.deps.users.with(tx).findByPhone(pool, phone);
      return user ? { kind: 'ok', userId: user.id } : { kind: 'expired' };
    });

    switch (outcome.kind) {
      case 'locked':
      case 'exhausted':
        throw new AppError('too_many_attempts', TOO_MANY_ATTEMPTS);
      case 'expired':
        throw new AppError(
          'code_expired',
          'This code has expired or was already used. Please request a new one.',
        );
      case 'mismatch':
        throw new AppError('code_mismatch', 'Invalid OTP. Please try again.');
      case 'ok':
        return this.issueSession(pool, outcome.userId, randomUUID());
    }
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
