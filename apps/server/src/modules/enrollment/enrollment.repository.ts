import { and, count, eq, gte, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { isUniqueViolation } from '../../db/postgres-errors.js';
import { deviceEnrollmentCodes, deviceEnrollmentFailures, devices } from '../../db/schema.js';

/** devices.id, organization and serial: what enrollment needs of a device. */
export interface EnrollableDevice {
  id: number;
  orgId: number | null;
  thingName: string;
}

/** Why a code enrolled nothing. */
export type CodeRefusal = 'unknown' | 'expired' | 'used';

/** Migration 0017: device_enrollment_codes_code_hash_key (a code already in use elsewhere). */
const CODE_HASH_CONSTRAINT = 'device_enrollment_codes_code_hash_key';

/**
 * Enrollment codes and failed attempts (migration 0017), and the one write enrollment makes to a
 * device: its new secret hash. Kept here, not in the devices repository, so the rotation and the
 * code's use are one transaction of this module.
 */
export class EnrollmentRepository {
  constructor(private readonly db: Executor) {}

  with(executor: Executor): EnrollmentRepository {
    return new EnrollmentRepository(executor);
  }

  async findDevice(id: number): Promise<EnrollableDevice | undefined> {
    const [row] = await this.db
      .select({ id: devices.id, orgId: devices.orgId, thingName: devices.thingName })
      .from(devices)
      .where(eq(devices.id, id));
    return row;
  }

  /**
   * Stores the device's code, replacing any earlier one (used or not). False when another
   * device's code has the same hash (the caller draws another code).
   */
  async saveCode(code: {
    deviceId: number;
    codeHash: string;
    createdBy: number;
    createdAt: Date;
    expiresAt: Date;
  }): Promise<boolean> {
    try {
      await this.db
        .insert(deviceEnrollmentCodes)
        .values({ ...code, usedAt: null })
        .onConflictDoUpdate({
          target: deviceEnrollmentCodes.deviceId,
          set: {
            codeHash: code.codeHash,
            createdBy: code.createdBy,
            createdAt: code.createdAt,
            expiresAt: code.expiresAt,
            usedAt: null,
          },
        });
      return true;
    } catch (error) {
      if (isUniqueViolation(error, CODE_HASH_CONSTRAINT)) return false;
      throw error;
    }
  }

  /**
   * Uses the code in one conditional statement: of any number of racing calls, exactly one gets
   * the device id; the others (and an expired or used code) get undefined.
   */
  async consumeCode(codeHash: string, at: Date): Promise<number | undefined> {
    const [row] = await this.db
      .update(deviceEnrollmentCodes)
      .set({ usedAt: at })
      .where(
        and(
          eq(deviceEnrollmentCodes.codeHash, codeHash),
          sql`${deviceEnrollmentCodes.usedAt} is null`,
          sql`${deviceEnrollmentCodes.expiresAt} > ${at}`,
        ),
      )
      .returning({ deviceId: deviceEnrollmentCodes.deviceId });
    return row?.deviceId;
  }

  /** Why a code that could not be used was refused (for the message). */
  async refusalOf(codeHash: string, at: Date): Promise<CodeRefusal> {
    const [row] = await this.db
      .select({ usedAt: deviceEnrollmentCodes.usedAt, expiresAt: deviceEnrollmentCodes.expiresAt })
      .from(deviceEnrollmentCodes)
      .where(eq(deviceEnrollmentCodes.codeHash, codeHash));
    if (!row) return 'unknown';
    if (row.usedAt) return 'used';
    return row.expiresAt.getTime() <= at.getTime() ? 'expired' : 'used';
  }

  /** The device's new broker secret (its hash): the one it had stops working. */
  async rotateSecret(
    deviceId: number,
    secretHash: string,
    at: Date,
  ): Promise<{ thingName: string } | undefined> {
    const [row] = await this.db
      .update(devices)
      .set({ secretHash, updatedAt: at })
      .where(eq(devices.id, deviceId))
      .returning({ thingName: devices.thingName });
    return row;
  }

  /** Serialises the enrollment attempts of one client address until the transaction ends. */
  async lockAddress(ip: string): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`enroll:${ip}`}))`);
  }

  async countFailures(ip: string, since: Date): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(deviceEnrollmentFailures)
      .where(
        and(eq(deviceEnrollmentFailures.ip, ip), gte(deviceEnrollmentFailures.createdAt, since)),
      );
    return row?.n ?? 0;
  }

  /** Records a failed attempt, and forgets those that no longer count for any address. */
  async recordFailure(ip: string, at: Date, forgetBefore: Date): Promise<void> {
    await this.db.insert(deviceEnrollmentFailures).values({ ip, createdAt: at });
    await this.db
      .delete(deviceEnrollmentFailures)
      .where(lt(deviceEnrollmentFailures.createdAt, forgetBefore));
  }
}
