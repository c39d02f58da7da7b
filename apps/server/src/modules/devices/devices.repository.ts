import { and, count, desc, eq, getTableColumns, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import {
  deviceErrors,
  devices,
  type DeviceRow,
  organizationMembers,
  organizations,
} from '../../db/schema.js';

export type DeviceWithOrg = DeviceRow & { orgName: string | null };

export interface DeviceChanges {
  name?: string;
  orgId?: number | null;
  softwareChannelId?: number | null;
  softwareVersion?: string | null;
  pricePaise?: number;
  printsLeft?: number;
  status?: string;
  pingedAt?: Date;
  updatedAt?: Date;
}

export interface Page {
  search?: string | undefined;
  limit: number;
  offset: number;
}

/** `%text%` for ILIKE with the pattern characters taken literally. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const withOrg = { ...getTableColumns(devices), orgName: organizations.name };

export class DevicesRepository {
  constructor(private readonly db: Executor) {}

  async findById(id: number): Promise<DeviceWithOrg | undefined> {
    const [row] = await this.db
      .select(withOrg)
      .from(devices)
      .leftJoin(organizations, eq(organizations.id, devices.orgId))
      .where(eq(devices.id, id));
    return row;
  }

  async secretHashOf(thingName: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ secretHash: devices.secretHash })
      .from(devices)
      .where(eq(devices.thingName, thingName));
    return row?.secretHash;
  }

  /** Inserts the device, or returns undefined when the thing name is taken (retry another). */
  async create(values: {
    name: string;
    thingName: string;
    secretHash: string;
  }): Promise<number | undefined> {
    const [row] = await this.db
      .insert(devices)
      .values(values)
      .onConflictDoNothing({ target: devices.thingName })
      .returning({ id: devices.id });
    return row?.id;
  }

  /**
   * A page of devices, newest first, searching name, thing name and organization name.
   * `memberUserId` limits the list to devices of that user's organizations.
   */
  async list(page: Page, memberUserId?: number): Promise<{ rows: DeviceWithOrg[]; total: number }> {
    const conditions: SQL[] = [];
    if (page.search) {
      const pattern = containing(page.search);
      conditions.push(
        or(
          ilike(devices.name, pattern),
          ilike(devices.thingName, pattern),
          ilike(organizations.name, pattern),
        )!,
      );
    }
    if (memberUserId !== undefined) {
      conditions.push(
        inArray(
          devices.orgId,
          this.db
            .select({ orgId: organizationMembers.orgId })
            .from(organizationMembers)
            .where(eq(organizationMembers.userId, memberUserId)),
        ),
      );
    }
    const where = conditions.length > 0 ? and(...conditions) : undefined;
    const rows = await this.db
      .select(withOrg)
      .from(devices)
      .leftJoin(organizations, eq(organizations.id, devices.orgId))
      .where(where)
      .orderBy(desc(devices.createdAt), desc(devices.id))
      .limit(page.limit)
      .offset(page.offset);
    const [total] = await this.db
      .select({ value: count() })
      .from(devices)
      .leftJoin(organizations, eq(organizations.id, devices.orgId))
      .where(where);
    return { rows, total: total?.value ?? 0 };
  }

  async update(id: number, changes: DeviceChanges): Promise<DeviceWithOrg | undefined> {
    const [row] = await this.db
      .update(devices)
      .set(changes)
      .where(eq(devices.id, id))
      .returning({ id: devices.id });
    return row ? this.findById(row.id) : undefined;
  }

  /** A status report from the booth itself (MQTT); returns false for an unknown thing name. */
  async recordStatus(
    thingName: string,
    report: { status: string; softwareVersion?: string | null; printsLeft?: number | null },
  ): Promise<boolean> {
    const rows = await this.db
      .update(devices)
      .set({
        status: report.status,
        ...(report.softwareVersion != null ? { softwareVersion: report.softwareVersion } : {}),
        ...(report.printsLeft != null ? { printsLeft: report.printsLeft } : {}),
      })
      .where(eq(devices.thingName, thingName))
      .returning({ id: devices.id });
    return rows.length > 0;
  }

  async delete(id: number): Promise<boolean> {
    const rows = await this.db
      .delete(devices)
      .where(eq(devices.id, id))
      .returning({ id: devices.id });
    return rows.length > 0;
  }

  async organizationExists(orgId: number): Promise<boolean> {
    const [row] = await this.db
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, orgId));
    return row !== undefined;
  }

  /** The caller's role in one organization, if a member. */
  async roleIn(userId: number, orgId: number): Promise<'member' | 'admin' | undefined> {
    const [row] = await this.db
      .select({ role: organizationMembers.role })
      .from(organizationMembers)
      .where(and(eq(organizationMembers.userId, userId), eq(organizationMembers.orgId, orgId)));
    return row?.role;
  }

  async errors(deviceId: number, page: Page) {
    const conditions: SQL[] = [eq(deviceErrors.deviceId, deviceId)];
    if (page.search) conditions.push(ilike(deviceErrors.errorMessage, containing(page.search)));
    const where = and(...conditions);
    const rows = await this.db
      .select()
      .from(deviceErrors)
      .where(where)
      .orderBy(desc(deviceErrors.createdAt), desc(deviceErrors.id))
      .limit(page.limit)
      .offset(page.offset);
    const [total] = await this.db.select({ value: count() }).from(deviceErrors).where(where);
    return { rows, total: total?.value ?? 0 };
  }

  async addError(deviceId: number, errorMessage: string, createdAt?: Date): Promise<void> {
    await this.db
      .insert(deviceErrors)
      .values({ deviceId, errorMessage, ...(createdAt ? { createdAt } : {}) });
  }
}
