import {
  can,
  DEVICE_MESSAGES,
  SOFTWARE_MESSAGES,
  type BoothEnv,
  type Device,
  type DeviceDelivery,
  type DeviceError,
  type DeviceErrorReport,
  type DeviceHealthView,
  type DevicePatch,
  type DeviceStatusMessage,
  type DeviceWhoAmI,
  type RegisteredDevice,
  type VisitorDevice,
} from '@flashbooth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { type ListBody, listBody, type PageQuery } from '../../db/paging.js';
import { isForeignKeyViolation } from '../../db/postgres-errors.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import { paiseToRupees, toApiTimestamp } from '../../lib/time.js';
import type { AccessClaims } from '../../security/access-tokens.js';
import { type DeviceLink, noAnswer } from '../mqtt/device-link.js';
import type { StaffCaller, UsersService } from '../users/users.service.js';
import {
  deviceSecretMatches,
  hashDeviceSecret,
  newDeviceSecret,
  newThingName,
} from '../../security/device-credentials.js';
import {
  type DeviceStatusFeed,
  type DeviceStatusRow,
  statusChangeOf,
} from './device-status-feed.js';
import { DeviceLoginRefused } from './device-login.js';
import { DeviceStatusWriter, SUPERSEDED } from './device-status-writer.js';
import {
  type DeviceChanges,
  type DeviceReport,
  type DevicesRepository,
  type DeviceWithOrg,
  type ReportedDevice,
  STATUS_WILL_SEQ,
} from './devices.repository.js';

/** Gives a capture back when its booth reports that it failed (CaptureService). */
export interface ReportedCaptures {
  releaseReported(deviceId: number, report: DeviceErrorReport): Promise<unknown>;
}

/** A booth's delivery figures for the console (the media module's DeliveryService). */
export interface DeviceDeliveries {
  deviceDelivery(deviceId: number): Promise<DeviceDelivery>;
}

/** What the env block of a new booth is made from (POST devices). */
export interface BoothAddresses {
  /** BOOTH_MQTT_PUBLIC_URL, when configured: used as it is. */
  publicMqttUrl?: string | undefined;
  /** MQTT_URL (an external broker), used when no public URL is configured. */
  externalMqttUrl?: string | undefined;
  /** The embedded broker as this machine reaches it (its bound port), once started. */
  embeddedBrokerUrl?: () => string | undefined;
  /** PUBLIC_URL: this server's address for booths; else the address the request came to. */
  publicUrl?: string | undefined;
}

/**
 * The broker URL to give a booth: the configured public URL, else the external broker's URL,
 * else the embedded broker's port on the host booths reach this server at.
 */
export function boothMqttUrl(addresses: BoothAddresses, serverUrl: string): string {
  if (addresses.publicMqttUrl) return addresses.publicMqttUrl;
  if (addresses.externalMqttUrl) return addresses.externalMqttUrl;
  const embedded = addresses.embeddedBrokerUrl?.();
  const host = new URL(serverUrl).hostname;
  const port = embedded ? new URL(embedded).port || '1883' : '1884';
  return `mqtt://${host}:${port}`;
}

export interface DevicesServiceOptions {
  devices: DevicesRepository;
  /** Where booths reach the broker and this server (the env block of POST devices). */
  boothAddresses?: BoothAddresses;
  users: UsersService;
  link: DeviceLink;
  captures: ReportedCaptures;
  /** Delivery times and waiting items for GET devices/{id}/health. */
  deliveries: DeviceDeliveries;
  commandTimeoutMs: number;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Where recorded status changes go for the live status stream (issue 11). */
  feed?: DeviceStatusFeed;
}

/** A booth's `at` (UTC, zone suffix optional) when it is plausible, else the server's time. */
function reportedAt(at: string | undefined, now: Date): Date {
  if (!at) return now;
  const parsed = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(at) ? at : `${at}Z`);
  const time = parsed.getTime();
  // A booth clock ahead of ours, or a date that makes no sense, is not believed.
  if (Number.isNaN(time) || time > now.getTime() + 60_000 || time < Date.UTC(2020, 0, 1)) {
    return now;
  }
  return parsed;
}

const deviceNotFound = () => notFound(DEVICE_MESSAGES.notFound);

/** The server's rule for thing names (newThingName, mqtt-access.ts). */
const THING_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** Compared when the thing name is unknown, so a miss costs what a wrong secret costs. */
const UNKNOWN_HASH = '0'.repeat(64);

/** devices.software_channel_id → software_channels (migration 0006, ON DELETE SET NULL). */
const DEVICE_CHANNEL_CONSTRAINT = 'devices_software_channel_id_fkey';
const onlyAdmins = () =>
  forbidden('Only super users and Flashbooth admins can do that with a device.');

/**
 * Devices and their permissions (staff spec section 6), enforced here: super users and product
 * admins see and manage every device; other staff see the devices of their own organizations
 * (a device elsewhere is "not found", never "forbidden"), organization admins may rename them,
 * and every one who sees a device may ping it.
 */
export class DevicesService {
  /**
   * Booth status reports, written in batches under load (one alone is written at once), each by
   * recordReports' one statement, which also keeps a report older than the recorded one out.
   */
  private readonly statusWriter = new DeviceStatusWriter((reports) =>
    this.repo.recordReports(reports),
  );

  constructor(private readonly options: DevicesServiceOptions) {}

  private get repo() {
    return this.options.devices;
  }

  toDto(row: DeviceWithOrg): Device {
    return {
      id: row.id,
      name: row.name,
      org_id: row.orgId,
      org_name: row.orgName,
      thing_name: row.thingName,
      status: row.status,
      software_channel_id: row.softwareChannelId,
      // Software channels arrive with the software issue.
      software_channel_name: row.softwareChannelName,
      software_version: row.softwareVersion,
      price_rupees: paiseToRupees(row.pricePaise),
      prints_left: row.printsLeft,
      created_at: toApiTimestamp(row.createdAt),
      updated_at: toApiTimestamp(row.updatedAt),
      pinged_at: row.pingedAt ? toApiTimestamp(row.pingedAt) : null,
    };
  }

  /** The caller's flags and memberships, for the shared rules (`can`). */
  private staff(claims: AccessClaims): Promise<StaffCaller> {
    return this.options.users.staffPrincipal(claims);
  }

  /** Whether the caller sees every device (super users and product admins). */
  private seesAll(caller: StaffCaller): boolean {
    return can(caller.principal, 'device.manage');
  }

  /**
   * The device if the caller may see it (`device.view` in its organization; an unlinked device
   * only for those who see all); 404 otherwise, another organization's device too.
   */
  private async visible(caller: StaffCaller, id: number): Promise<DeviceWithOrg> {
    const row = await this.repo.findById(id);
    if (!row) throw deviceNotFound();
    if (this.seesAll(caller)) return row;
    if (row.orgId === null || !can(caller.principal, 'device.view', row.orgId)) {
      throw deviceNotFound();
    }
    return row;
  }

  /** Visible, and the caller may manage it (`device.manage`: super users, product admins). */
  private async managed(claims: AccessClaims, id: number): Promise<DeviceWithOrg> {
    const caller = await this.staff(claims);
    const row = await this.visible(caller, id);
    if (!can(caller.principal, 'device.manage', row.orgId ?? undefined)) throw onlyAdmins();
    return row;
  }

  /** The env block for a new booth; `serverUrl` is where the request came to (no PUBLIC_URL). */
  private boothEnv(thingName: string, secret: string, serverUrl: string): BoothEnv {
    const addresses = this.options.boothAddresses ?? {};
    const server = addresses.publicUrl ?? serverUrl;
    return {
      BOOTH_MQTT_URL: boothMqttUrl(addresses, server),
      BOOTH_THING_NAME: thingName,
      BOOTH_SECRET: secret,
      BOOTH_SERVER_URL: server,
    };
  }

  /**
   * Registers a device (`device.register`); answers it with its secret, shown this once, and
   * the env block for the booth. `serverUrl` is the origin the request came to.
   */
  async register(
    claims: AccessClaims,
    name: string | undefined,
    serverUrl: string,
  ): Promise<RegisteredDevice> {
    const caller = await this.staff(claims);
    if (!can(caller.principal, 'device.register')) throw onlyAdmins();
    const secret = newDeviceSecret();
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const thingName = newThingName();
      const id = await this.repo.create({
        name: name ?? `Photobooth ${thingName}`,
        thingName,
        secretHash: hashDeviceSecret(secret),
      });
      if (id !== undefined) {
        const row = await this.repo.findById(id);
        if (!row) throw deviceNotFound();
        return {
          ...this.toDto(row),
          secret,
          booth_env: this.boothEnv(row.thingName, secret, serverUrl),
        };
      }
    }
    throw new AppError('conflict', 'Could not pick a free serial. Please try again.');
  }

  async list(claims: AccessClaims, page: PageQuery) {
    const caller = await this.staff(claims);
    const rows = await this.repo.list(page, this.seesAll(caller) ? undefined : caller.user.id);
    return listBody(rows, (row) => this.toDto(row));
  }

  async get(claims: AccessClaims, id: number): Promise<Device> {
    return this.toDto(await this.visible(await this.staff(claims), id));
  }

  /** The booth's last health report and its deliveries: whoever may view the device. */
  async health(claims: AccessClaims, id: number): Promise<DeviceHealthView> {
    const row = await this.visible(await this.staff(claims), id);
    const last = await this.repo.healthOf(row.id);
    return {
      status: row.status,
      health: last?.health ?? null,
      health_at: last?.healthAt ? toApiTimestamp(last.healthAt) : null,
      delivery: await this.options.deliveries.deviceDelivery(row.id),
    };
  }

  async patch(claims: AccessClaims, id: number, patch: DevicePatch): Promise<Device> {
    const caller = await this.staff(claims);
    const row = await this.visible(caller, id);
    const changes: DeviceChanges = {};
    const orgId = row.orgId ?? undefined;
    if (patch.name !== undefined) {
      if (!can(caller.principal, 'device.rename', orgId)) {
        throw forbidden("Only the organization's admins can rename this device.");
      }
      changes.name = patch.name;
    } else {
      if (!can(caller.principal, 'device.manage', orgId)) throw onlyAdmins();
      if (patch.software_channel_id !== undefined) {
        changes.softwareChannelId = patch.software_channel_id;
      }
      if (patch.prints_left !== undefined) return this.restock(id, patch.prints_left);
      if (patch.price_rupees !== undefined) {
        changes.pricePaise = Math.round(patch.price_rupees * 100);
      }
    }
    return this.save(id, { ...changes, updatedAt: this.options.now() });
  }

  /**
   * Staff restocked the booth: the value is stored with a new settings revision and published
   * retained to the booth. A publish failure does not fail the change: the booth's next status
   * shows it behind that revision, and the settings are published again then.
   */
  private async restock(id: number, printsLeft: number): Promise<Device> {
    const restocked = await this.repo.restock(id, printsLeft, this.options.now());
    if (!restocked) throw deviceNotFound();
    this.sendSettings(restocked);
    const row = await this.repo.findById(id);
    if (!row) throw deviceNotFound();
    this.changedHere(row);
    return this.toDto(row);
  }

  /** Publishes the device's settings (retained) without waiting; failures are logged. */
  private sendSettings(device: ReportedDevice): void {
    const { link, log } = this.options;
    const settings = { revision: device.settingsRevision, prints_left: device.printsLeft };
    link.publishSettings(device.thingName, settings).then(
      () => log.info({ deviceId: device.id, ...settings }, 'device settings published'),
      (error: unknown) =>
        log.warn(
          { err: error, deviceId: device.id, ...settings },
          'device settings not published; they go out again with the next status',
        ),
    );
  }

  async link(claims: AccessClaims, id: number, orgId: number): Promise<Device> {
    await this.managed(claims, id);
    if (!(await this.repo.organizationExists(orgId))) throw notFound('Organization not found.');
    return this.save(id, { orgId, updatedAt: this.options.now() });
  }

  async unlink(claims: AccessClaims, id: number): Promise<Device> {
    await this.managed(claims, id);
    return this.save(id, { orgId: null, updatedAt: this.options.now() });
  }

  async remove(claims: AccessClaims, id: number): Promise<void> {
    await this.managed(claims, id);
    if (!(await this.repo.delete(id))) throw deviceNotFound();
  }

  async errors(claims: AccessClaims, id: number, page: PageQuery): Promise<ListBody<DeviceError>> {
    await this.managed(claims, id);
    return listBody(await this.repo.errors(id, page), (row) => ({
      id: row.id,
      created_at: toApiTimestamp(row.createdAt),
      error_message: row.errorMessage,
    }));
  }

  /** Staff ping: everyone who sees the device (`device.ping`); returns the refreshed device. */
  async ping(claims: AccessClaims, id: number): Promise<Device> {
    // Whoever may view a device may ping it (the rules give members both).
    const row = await this.visible(await this.staff(claims), id);
    return this.toDto(await this.askStatus(row));
  }

  /** A visitor sees any device linked to an organization. */
  private async linkedForVisitor(claims: AccessClaims, id: number): Promise<DeviceWithOrg> {
    await this.options.users.caller(claims);
    const row = await this.repo.findById(id);
    if (!row || row.orgId === null) throw deviceNotFound();
    return row;
  }

  async visitorGet(claims: AccessClaims, id: number): Promise<VisitorDevice> {
    const row = await this.linkedForVisitor(claims, id);
    return {
      id: row.id,
      name: row.name,
      org_name: row.orgName,
      price_rupees: paiseToRupees(row.pricePaise),
      status: row.status,
    };
  }

  async visitorPing(claims: AccessClaims, id: number): Promise<{ status: string }> {
    const row = await this.askStatus(await this.linkedForVisitor(claims, id));
    return { status: row.status };
  }

  /**
   * GET /api/device/whoami: the device whose credentials these are. Refused with the reason
   * (DeviceLoginRefused): no device has this thing name, or the secret is not its own. The
   * secret is compared in constant time in both cases; the thing name's existence is told, since
   * it is a random serial and the 32-byte secret is what protects the booth.
   */
  async whoAmI(thingName: string, secret: string): Promise<DeviceWhoAmI> {
    const row = THING_NAME.test(thingName)
      ? await this.repo.findWithOrgByThingName(thingName)
      : undefined;
    const matches = deviceSecretMatches(secret, row?.secretHash ?? UNKNOWN_HASH);
    if (!row) throw new DeviceLoginRefused('unknown_device', thingName);
    if (!matches) throw new DeviceLoginRefused('wrong_secret', thingName);
    return { id: row.id, thing_name: row.thingName, name: row.name, organization: row.orgName };
  }

  /** A status report the booth published (MQTT); an unknown thing name is dropped. */
  async recordStatus(thingName: string, message: DeviceStatusMessage): Promise<void> {
    const report: DeviceReport = {
      status: message.status,
      softwareVersion: message.software_version,
      printsLeft: message.prints_left,
      settingsRevision: message.settings_revision,
      health: message.health,
      order: message.order && {
        boot: message.order.boot,
        connection: message.order.connection,
        seq: message.order.seq ?? STATUS_WILL_SEQ,
      },
    };
    const device = await this.statusWriter.record(thingName, report);
    // A newer report of the same booth was written in its place (and is streamed).
    if (device === SUPERSEDED) return;
    // A newer report was already recorded (by another instance, or before a retried write).
    if (device?.stale) {
      this.options.log.debug({ thingName, order: message.order }, 'an older status report left');
      return;
    }
    if (device) this.resendSettingsIfBehind(device, report);
    if (!device) {
      this.options.log.warn({ thingName }, 'status from an unknown device dropped');
      return;
    }
    // Every instance hears the booth's report itself, unless the reports are split among the
    // instances (a shared subscription): then the others are told.
    if (this.options.link.reportsSplit) this.options.feed?.publishShared(statusChangeOf(device));
    else this.options.feed?.publishLocal(statusChangeOf(device));
  }

  /** A change made through this instance's API, for the status streams of every instance. */
  private changedHere(row: DeviceStatusRow): void {
    this.options.feed?.publishShared(statusChangeOf(row));
  }

  /**
   * Records a booth's report and, when the booth is online but has not applied the newest
   * settings revision (a restock it missed), publishes the settings again.
   */
  private async record(
    device: { thingName: string } | { id: number },
    report: DeviceReport,
  ): Promise<ReportedDevice | undefined> {
    const row = await this.repo.recordReport(device, report);
    if (row) this.resendSettingsIfBehind(row, report);
    return row;
  }

  /** The booth is online but has not applied the newest settings revision: publish them again. */
  private resendSettingsIfBehind(row: ReportedDevice, report: DeviceReport): void {
    if (report.status !== 'offline' && (report.settingsRevision ?? 0) < row.settingsRevision) {
      this.sendSettings(row);
    }
  }

  /**
   * An entry the booth published for its error log (MQTT): written once per report id, then,
   * when it ended a capture, that capture is given back if nothing of it was delivered. A
   * duplicate still retries the give-back (idempotent), in case the first attempt failed.
   */
  async recordErrorReport(thingName: string, report: DeviceErrorReport): Promise<void> {
    const { log, now, captures } = this.options;
    const device = await this.repo.findByThingName(thingName);
    if (!device) {
      log.warn(
        { thingName, reportId: report.report_id },
        'error report from an unknown device dropped',
      );
      return;
    }
    const message = report.capture_id
      ? `${report.message} (capture ${report.capture_id})`
      : report.message;
    const logged = await this.repo.addReportedError(
      device.id,
      report.report_id,
      message,
      reportedAt(report.at, now()),
    );
    if (logged) {
      log.info({ deviceId: device.id, reportId: report.report_id }, 'device error logged');
    }
    if (report.capture_id) await captures.releaseReported(device.id, report);
  }

  /**
   * Pings the booth; records its answer, or `offline` when it does not answer in time. A booth
   * the broker knows to be away gets the same answer at once, without waiting for the timeout.
   */
  private async askStatus(row: DeviceWithOrg): Promise<DeviceWithOrg> {
    const { link, commandTimeoutMs, now } = this.options;
    let reply;
    try {
      if (await link.isAway?.(row.thingName)) throw noAnswer();
      reply = await link.request(row.thingName, 'ping', {}, commandTimeoutMs);
    } catch (error) {
      if (error instanceof AppError && error.code === 'service_unavailable') {
        const offline = await this.repo.update(row.id, { status: 'offline' });
        if (offline) this.changedHere(offline);
      }
      throw error;
    }
    await this.record(
      { id: row.id },
      {
        status: reply.status ?? 'idle',
        pingedAt: now(),
        softwareVersion: reply.software_version,
        printsLeft: reply.prints_left,
        settingsRevision: reply.settings_revision,
      },
    );
    const fresh = await this.repo.findById(row.id);
    if (!fresh) throw deviceNotFound();
    this.changedHere(fresh);
    return fresh;
  }

  private async save(id: number, changes: DeviceChanges): Promise<Device> {
    return this.toDto(await this.update(id, changes));
  }

  private async update(id: number, changes: DeviceChanges): Promise<DeviceWithOrg> {
    let row: DeviceWithOrg | undefined;
    try {
      row = await this.repo.update(id, changes);
    } catch (error) {
      // A channel that does not exist (or was just deleted) fails on the foreign key of
      // migration 0006: the caller's 404, not a server error.
      if (isForeignKeyViolation(error, DEVICE_CHANNEL_CONSTRAINT)) {
        throw notFound(SOFTWARE_MESSAGES.channelNotFound);
      }
      throw error;
    }
    if (!row) throw deviceNotFound();
    this.changedHere(row);
    return row;
  }
}
