import { count, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { DeviceHealth } from '@flashbooth/contracts';
import { type Executor, rowsOf } from '../../db/client.js';
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

/**
 * A device as lists and detail pages use it: every column except the booth's last health report
 * (a JSON document only the health endpoint reads; see `healthOf`).
 */
export type DeviceWithOrg = Omit<
  DeviceRow,
  'health' | 'healthAt' | 'statusBoot' | 'statusConnection' | 'statusSeq' | 'statusOrderAt'
> & {
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
  /** The booth's health with this report (issue 22); absent keeps the last one. */
  health?: DeviceHealth | null | undefined;
  /**
   * The report's place among the booth's reports (StatusOrderSchema, a will's seq being
   * STATUS_WILL_SEQ): recordReports writes it only when not older than the recorded one. Absent
   * (older agents): written whatever is recorded, which it leaves in place.
   */
  order?: { boot: number; connection: number; seq: number } | undefined;
}

/** The seq of a last will: after every report of its connection. */
export const STATUS_WILL_SEQ = Number.MAX_SAFE_INTEGER;

/**
 * How long a recorded order holds older reports back. Reports come out of order by moments (two
 * instances) or by the status writer's retries (up to 2 minutes); a booth whose saved state was
 * lost starts again from a lower boot, and its reports are written again after this.
 */
const ORDER_HOLDS = sql.raw(`interval '5 minutes'`);

/**
 * The device after a report: enough to tell whether its settings must be sent again, and the
 * live fields the status stream shows (DeviceStatusFeed), without another query.
 */
export interface ReportedDevice {
  id: number;
  thingName: string;
  settingsRevision: number;
  printsLeft: number;
  orgId: number | null;
  status: string;
  softwareVersion: string | null;
  pingedAt: Date | null;
  updatedAt: Date;
  /** The report was older than the recorded one and not written: the row is as it was. */
  stale?: true;
}

/** The columns of a ReportedDevice (status reports, restocks). */
const reportedColumns = {
  id: devices.id,
  thingName: devices.thingName,
  settingsRevision: devices.settingsRevision,
  printsLeft: devices.printsLeft,
  orgId: devices.orgId,
  status: devices.status,
  softwareVersion: devices.softwareVersion,
  pingedAt: devices.pingedAt,
  updatedAt: devices.updatedAt,
};

const {
  health,
  healthAt,
  statusBoot,
  statusConnection,
  statusSeq,
  statusOrderAt,
  ...deviceColumns
} = getTableColumns(devices);

const withOrg = {
  ...deviceColumns,
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

  /** The booth's last health report and when it came (the Booth Health panel). */
  async healthOf(id: number): Promise<Pick<DeviceRow, 'health' | 'healthAt'> | undefined> {
    const [row] = await this.db
      .select({ health: devices.health, healthAt: devices.healthAt })
      .from(devices)
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
   * A ping reply from the booth, by thing name or id; undefined for an unknown device. Status and
   * software version are always taken. prints_left only when the booth has applied the device's
   * settings revision: a count from before a restock never overwrites the restocked value
   * (checked in the same statement, so a concurrent restock cannot slip between the check and
   * the write). A reply has no `order` (it answers this moment's question): it is written as
   * heard and leaves the recorded order in place. Status reports go through recordReports.
   */
  async recordReport(
    device: { thingName: string } | { id: number },
    report: Omit<DeviceReport, 'order'>,
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
        ...(report.health ? { health: report.health, healthAt: sql`now()` } : {}),
      })
      .where('id' in device ? eq(devices.id, device.id) : eq(devices.thingName, device.thingName))
      .returning(reportedColumns);
    return row;
  }

  /**
   * Several booths' status reports in one statement (DeviceStatusWriter), with the rules of
   * recordReport for each (status always; software version when given; prints_left only when the
   * booth has applied the device's settings revision; not over a newer report). One report per
   * thing name. The rows of the devices found (a stale report's marked so); unknown thing names
   * are left out.
   */
  async recordReports(
    reports: { thingName: string; report: DeviceReport }[],
  ): Promise<ReportedDevice[]> {
    if (reports.length === 0) return [];
    const values = sql.join(
      reports.map(({ thingName, report }) => {
        const { order } = report;
        return sql`(${thingName}::text, ${report.status}::text, ${report.softwareVersion ?? null}::text, ${report.printsLeft ?? null}::integer, ${report.settingsRevision ?? 0}::integer, ${report.health ? JSON.stringify(report.health) : null}::jsonb, ${order?.boot ?? null}::bigint, ${order?.connection ?? null}::integer, ${order?.seq ?? null}::bigint)`;
      }),
      sql`, `,
    );
    // Timestamps leave as ISO text: both drivers then give the same thing back.
    const iso = (column: string) =>
      sql.raw(`to_char(d.${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);
    const result = await this.db.execute(sql`
      update devices as d set
        status = v.status,
        software_version = coalesce(v.software_version, d.software_version),
        prints_left = case
          when v.prints_left is not null and d.settings_revision <= v.applied then v.prints_left
          else d.prints_left end,
        health = coalesce(v.health, d.health),
        health_at = case when v.health is null then d.health_at else now() end,
        status_boot = coalesce(v.boot, d.status_boot),
        status_connection = coalesce(v.connection, d.status_connection),
        status_seq = coalesce(v.seq, d.status_seq),
        status_order_at = case when v.boot is null then d.status_order_at else now() end
      from (values ${values})
        as v(thing_name, status, software_version, prints_left, applied, health, boot, connection, seq)
      where d.thing_name = v.thing_name
        and (v.boot is null or d.status_boot is null
          or (v.boot, v.connection, v.seq) >= (d.status_boot, d.status_connection, d.status_seq)
          or d.status_order_at < now() - ${ORDER_HOLDS})
      returning d.id, d.thing_name, d.settings_revision, d.prints_left, d.org_id, d.status,
        d.software_version, ${iso('pinged_at')} as pinged_at, ${iso('updated_at')} as updated_at`);
    const written = rowsOf<{
      id: number;
      thing_name: string;
      settings_revision: number;
      prints_left: number;
      org_id: number | null;
      status: string;
      software_version: string | null;
      pinged_at: string | null;
      updated_at: string;
    }>(result).map((row): ReportedDevice => ({
      id: row.id,
      thingName: row.thing_name,
      settingsRevision: row.settings_revision,
      printsLeft: row.prints_left,
      orgId: row.org_id,
      status: row.status,
      softwareVersion: row.software_version,
      pingedAt: row.pinged_at ? new Date(row.pinged_at) : null,
      updatedAt: new Date(row.updated_at),
    }));
    if (written.length === reports.length) return written;
    // Not written: unknown, or older than the recorded report (then kept, marked stale).
    const seen = new Set(written.map((row) => row.thingName));
    const missing = reports.filter((r) => r.report.order && !seen.has(r.thingName));
    if (missing.length === 0) return written;
    const kept = await this.db
      .select(reportedColumns)
      .from(devices)
      .where(
        inArray(
          devices.thingName,
          missing.map((r) => r.thingName),
        ),
      );
    return [...written, ...kept.map((row) => ({ ...row, stale: true as const }))];
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

  /** The device with its organization's name, by thing name (the booth's own credential check). */
  async findWithOrgByThingName(thingName: string): Promise<DeviceWithOrg | undefined> {
    const [row] = await this.withOrg().where(eq(devices.thingName, thingName));
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
