import { count, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { inOrganizationsOf } from '../../db/memberships.js';
import { allOf, fetchPage, type Page, type PageQuery, searchAny } from '../../db/paging.js';
import {
  type DeviceErrorRow,
  deviceErrors,
  devices,
  type DeviceRow,
  organizations,
  softwareChannels,
} from '../../db/schema.js';

export type DeviceWithOrg = DeviceRow & {
  orgName: string | null;
  softwareChannelName: string | null;
};

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

/** What a booth said about itself: a status message or a ping reply. */
export interface DeviceReport {
  status: string;
  softwareVersion?: string | null | undefined;
  printsLeft?: number | null | undefined;
  /** The settings revision the booth has applied; absent counts as 0. */
  settingsRevision?: number | null | undefined;
  pingedAt?: Date | undefined;
}

/** The device after a report: enough to tell whether its settings must be sent again. */
export interface ReportedDevice {
  id: number;
  thingName: string;
  settingsRevision: number;
  printsLeft: number;
}

/** The columns of a ReportedDevice (status reports, restocks). */
const reportedColumns = {
  id: devices.id,
  thingName: devices.thingName,
  settingsRevision: devices.settingsRevision,
  printsLeft: devices.printsLeft,
};

const withOrg = {
  ...getTableColumns(devices),
  orgName: organizations.name,
  softwareChannelName: softwareChannels.name,
};

export class DevicesRepository {
  constructor(private readonly db: Executor) {}

  /** Devices with their organization's and software channel's names. */
  private withOrg() {
    return this.db
      .select(withOrg)
      .from(devices)
      .leftJoin(organizations, eq(organizations.id, devices.orgId))
      .leftJoin(softwareChannels, eq(softwareChannels.id, devices.softwareChannelId));
  }

  async findById(id: number): Promise<DeviceWithOrg | undefined> {
    const [row] = await this.withOrg().where(eq(devices.id, id));
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
  async list(page: PageQuery, memberUserId?: number): Promise<Page<DeviceWithOrg>> {
    const where = allOf(
      searchAny(page.search, [devices.name, devices.thingName, organizations.name]),
      inOrganizationsOf(this.db, devices.orgId, memberUserId),
    );
    return fetchPage(
      page,
      this.withOrg().where(where).orderBy(desc(devices.createdAt), desc(devices.id)),
      this.db
        .select({ value: count() })
        .from(devices)
        .leftJoin(organizations, eq(organizations.id, devices.orgId))
        .where(where),
    );
  }

  async update(id: number, changes: DeviceChanges): Promise<DeviceWithOrg | undefined> {
    const [row] = await this.db
      .update(devices)
      .set(changes)
      .where(eq(devices.id, id))
      .returning({ id: devices.id });
    return row ? this.findById(row.id) : undefined;
  }

  /**
   * A report from the booth itself (MQTT status or ping reply), by thing name or id; undefined
   * for an unknown device. Status and software version are always taken. prints_left only when
   * the booth has applied the device's settings revision: a count from before a restock never
   * overwrites the restocked value (checked in the same statement, so a concurrent restock
   * cannot slip between the check and the write).
   */
  async recordReport(
    device: { thingName: string } | { id: number },
    report: DeviceReport,
  ): Promise<ReportedDevice | undefined> {
    const applied = report.settingsRevision ?? 0;
    const [row] = await this.db
      .update(devices)
      .set({
        status: report.status,
        ...(report.softwareVersion != null ? { softwareVersion: report.softwareVersion } : {}),
        ...(report.printsLeft != null
          ? {
              printsLeft: sql`case when ${devices.settingsRevision} <= ${applied}::integer then ${report.printsLeft}::integer else ${devices.printsLeft} end`,
            }
          : {}),
        ...(report.pingedAt ? { pingedAt: report.pingedAt } : {}),
      })
      .where('id' in device ? eq(devices.id, device.id) : eq(devices.thingName, device.thingName))
      .returning(reportedColumns);
    return row;
  }

  /**
   * Staff restocked: stores prints_left and moves the settings revision on, atomically, so every
   * restock has its own revision. Undefined for an unknown device.
   */
  async restock(id: number, printsLeft: number, at: Date): Promise<ReportedDevice | undefined> {
    const [row] = await this.db
      .update(devices)
      .set({
        printsLeft,
        settingsRevision: sql`${devices.settingsRevision} + 1`,
        updatedAt: at,
      })
      .where(eq(devices.id, id))
      .returning(reportedColumns);
    return row;
  }

  async findByThingName(thingName: string): Promise<ReportedDevice | undefined> {
    const [row] = await this.db
      .select(reportedColumns)
      .from(devices)
      .where(eq(devices.thingName, thingName));
    return row;
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

  async errors(deviceId: number, page: PageQuery): Promise<Page<DeviceErrorRow>> {
    const where = allOf(
      eq(deviceErrors.deviceId, deviceId),
      searchAny(page.search, [deviceErrors.errorMessage]),
    );
    return fetchPage(
      page,
      this.db
        .select()
        .from(deviceErrors)
        .where(where)
        .orderBy(desc(deviceErrors.createdAt), desc(deviceErrors.id)),
      this.db.select({ value: count() }).from(deviceErrors).where(where),
    );
  }

  async addError(deviceId: number, errorMessage: string, createdAt?: Date): Promise<void> {
    await this.db
      .insert(deviceErrors)
      .values({ deviceId, errorMessage, ...(createdAt ? { createdAt } : {}) });
  }

  /**
   * A booth's error report, once per (device, report id): false when it was already logged
   * (a QoS 1 duplicate, or another server instance wrote it first).
   */
  async addReportedError(
    deviceId: number,
    reportId: string,
    errorMessage: string,
    createdAt: Date,
  ): Promise<boolean> {
    const rows = await this.db
      .insert(deviceErrors)
      .values({ deviceId, reportId, errorMessage, createdAt })
      .onConflictDoNothing({ target: [deviceErrors.deviceId, deviceErrors.reportId] })
      .returning({ id: deviceErrors.id });
    return rows.length > 0;
  }
}
