import {
  can,
  ENROLLMENT_CODE_TTL_MINUTES,
  ENROLLMENT_MESSAGES,
  enrollCommand,
  type EnrollmentCode,
  installCommand,
  type EnrollResponse,
  formatEnrollmentCode,
} from '@flashbooth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import { toApiTimestamp } from '../../lib/time.js';
import type { AccessClaims } from '../../security/access-tokens.js';
import { hashDeviceSecret, newDeviceSecret } from '../../security/device-credentials.js';
import { type BoothAddresses, boothMqttUrl } from '../devices/devices.service.js';
import type { UsersService } from '../users/users.service.js';
import { generateEnrollmentCode, hashEnrollmentCode } from './enrollment.crypto.js';
import type { EnrollmentRepository } from './enrollment.repository.js';

/** How many wrong, used or expired codes one client address may send in the window. */
export interface EnrollmentPolicy {
  failuresPerIp: number;
  windowSeconds: number;
  codeTtlMinutes: number;
}

export const DEFAULT_ENROLLMENT_POLICY: EnrollmentPolicy = {
  failuresPerIp: 10,
  windowSeconds: 900,
  codeTtlMinutes: ENROLLMENT_CODE_TTL_MINUTES,
};

export interface EnrollmentServiceOptions {
  db: Database;
  repository: EnrollmentRepository;
  users: UsersService;
  /** Where booths reach the broker and this server (as for the env block of POST devices). */
  boothAddresses: BoothAddresses;
  /** Key of the codes' keyed hash (derived from AUTH_SECRET). */
  codeKey: Buffer;
  policy?: EnrollmentPolicy;
  now: () => Date;
  log: FastifyBaseLogger;
}

const DEVICE_NOT_FOUND = 'Device not found.';

/**
 * One-time enrollment codes (issue 22, item 5). Staff who may manage a device (super users and
 * product admins, as for registering it) make a code; a booth computer trades it once, within
 * 30 minutes, for its settings with a new secret. Wrong, used and expired codes count against the
 * client address: with too many in the window, no code from it is checked until they age out.
 */
export class EnrollmentService {
  private readonly policy: EnrollmentPolicy;

  constructor(private readonly options: EnrollmentServiceOptions) {
    this.policy = options.policy ?? DEFAULT_ENROLLMENT_POLICY;
  }

  private serverUrl(requestOrigin: string): string {
    return this.options.boothAddresses.publicUrl ?? requestOrigin;
  }

  /**
   * A new code for device `deviceId`, replacing any earlier one. The same rule as the devices'
   * own management calls: a device the caller cannot see is "not found", one they see but may
   * not manage is "forbidden".
   */
  async issue(
    claims: AccessClaims,
    deviceId: number,
    requestOrigin: string,
  ): Promise<EnrollmentCode> {
    const { users, repository, codeKey, now, log } = this.options;
    const caller = await users.staffPrincipal(claims);
    const device = await repository.findDevice(deviceId);
    if (!device) throw notFound(DEVICE_NOT_FOUND);
    const seesAll = can(caller.principal, 'device.manage');
    if (
      !seesAll &&
      (device.orgId === null || !can(caller.principal, 'device.view', device.orgId))
    ) {
      throw notFound(DEVICE_NOT_FOUND);
    }
    if (!can(caller.principal, 'device.manage', device.orgId ?? undefined)) {
      throw forbidden('Only super users and Flashbooth admins can do that with a device.');
    }
    const createdAt = now();
    const expiresAt = new Date(createdAt.getTime() + this.policy.codeTtlMinutes * 60_000);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const code = generateEnrollmentCode();
      const saved = await repository.saveCode({
        deviceId,
        codeHash: hashEnrollmentCode(codeKey, code),
        createdBy: caller.user.id,
        createdAt,
        expiresAt,
      });
      if (saved) {
        log.info({ deviceId, userId: caller.user.id }, 'device enrollment code made');
        const serverUrl = this.serverUrl(requestOrigin);
        return {
          device_id: deviceId,
          code: formatEnrollmentCode(code),
          expires_at: toApiTimestamp(expiresAt),
          server_url: serverUrl,
          command: installCommand(serverUrl, code),
          enroll_command: enrollCommand(serverUrl, code),
        };
      }
    }
    throw new AppError('conflict', ENROLLMENT_MESSAGES.failed);
  }

  /**
   * POST /api/device/enroll: uses the code (normalized) and answers the booth's settings with a
   * new secret. The code's use and the secret's rotation are one transaction: a code enrolls
   * exactly one booth, and a failed answer leaves both as they were.
   */
  async enroll(code: string, ip: string, requestOrigin: string): Promise<EnrollResponse> {
    const { db, repository, codeKey, now, log, boothAddresses } = this.options;
    const codeHash = hashEnrollmentCode(codeKey, code);
    const secret = newDeviceSecret();
    const outcome = await db.transaction(async (tx) => {
      const repo = repository.with(tx);
      await repo.lockAddress(ip);
      const at = now();
      const windowStart = new Date(at.getTime() - this.policy.windowSeconds * 1000);
      if ((await repo.countFailures(ip, windowStart)) >= this.policy.failuresPerIp) {
        return { kind: 'throttled' as const };
      }
      const deviceId = await repo.consumeCode(codeHash, at);
      const device =
        deviceId === undefined
          ? undefined
          : await repo.rotateSecret(deviceId, hashDeviceSecret(secret), at);
      if (deviceId === undefined || !device) {
        const refusal = await repo.refusalOf(codeHash, at);
        await repo.recordFailure(ip, at, windowStart);
        return { kind: 'refused' as const, refusal };
      }
      return { kind: 'enrolled' as const, deviceId, thingName: device.thingName };
    });
    if (outcome.kind === 'throttled') {
      throw new AppError('too_many_attempts', ENROLLMENT_MESSAGES.tooManyTries);
    }
    if (outcome.kind === 'refused') {
      log.info({ ip, refusal: outcome.refusal }, 'device enrollment refused');
      if (outcome.refusal === 'expired') {
        throw new AppError('code_expired', ENROLLMENT_MESSAGES.expired);
      }
      if (outcome.refusal === 'used') throw new AppError('conflict', ENROLLMENT_MESSAGES.used);
      throw new AppError('code_mismatch', ENROLLMENT_MESSAGES.unknown);
    }
    log.info({ deviceId: outcome.deviceId, ip }, 'booth enrolled; device secret replaced');
    const serverUrl = this.serverUrl(requestOrigin);
    return {
      BOOTH_MQTT_URL: boothMqttUrl(boothAddresses, serverUrl),
      BOOTH_THING_NAME: outcome.thingName,
      BOOTH_SECRET: secret,
      BOOTH_SERVER_URL: serverUrl,
    };
  }
}
