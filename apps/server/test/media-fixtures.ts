import type {
  CaptureCommandPayload,
  DeviceCommand,
  DeviceErrorReport,
  DeviceSettingsMessage,
  DeviceStatusMessage,
} from '@flashbooth/contracts';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import type { Database } from '../src/db/client.js';
import {
  devices,
  organizations,
  templateImages,
  templateOrganizations,
  templates,
} from '../src/db/schema.js';
import { hashDeviceSecret, newDeviceSecret } from '../src/security/device-credentials.js';
import {
  type DeviceLink,
  type ErrorReportHandler,
  noAnswer,
  type StatusHandler,
} from '../src/modules/mqtt/device-link.js';
import { AppError } from '../src/errors.js';
import { bearer } from './harness.js';

export type BoothBehaviour = 'accept' | 'refuse' | 'silent';

/**
 * A booth line the test scripts per thing name: accept the command, refuse it (an `error`
 * reply), or stay silent until the request times out. Every command is recorded.
 */
export class ScriptedLink implements DeviceLink {
  readonly kind = 'test' as const;
  readonly behaviour = new Map<string, BoothBehaviour>();
  readonly sent: { thingName: string; command: DeviceCommand; payload: unknown }[] = [];
  readonly statusHandlers: StatusHandler[] = [];
  readonly errorHandlers: ErrorReportHandler[] = [];
  readonly settings: { thingName: string; settings: DeviceSettingsMessage }[] = [];
  /** What an accepting booth answers a ping with (idle unless a test says otherwise). */
  readonly pingStatus = new Map<string, string>();
  /** Booths the broker knows are away (last will, clean disconnect). */
  readonly away = new Set<string>();
  isAway(thingName: string) {
    return this.away.has(thingName);
  }
  async start() {}
  async stop() {}
  async ping() {}
  onStatus(handler: StatusHandler) {
    this.statusHandlers.push(handler);
  }
  onErrorReport(handler: ErrorReportHandler) {
    this.errorHandlers.push(handler);
  }
  async publishSettings(thingName: string, settings: DeviceSettingsMessage) {
    this.settings.push({ thingName, settings });
  }
  /** Delivers a status report as the broker would, to every handler, and waits for them. */
  async status(thingName: string, message: DeviceStatusMessage) {
    await Promise.all(this.statusHandlers.map((handler) => handler(thingName, message)));
  }
  /** Delivers an error report as the broker would, to every handler, and waits for them. */
  async report(thingName: string, report: DeviceErrorReport) {
    await Promise.all(this.errorHandlers.map((handler) => handler(thingName, report)));
  }
  async request(
    thingName: string,
    command: DeviceCommand,
    payload: Record<string, unknown>,
    timeoutMs: number,
  ) {
    this.sent.push({ thingName, command, payload });
    const behaviour = this.behaviour.get(thingName) ?? 'silent';
    if (behaviour === 'refuse') throw new AppError('unprocessable', 'Booth is busy.');
    if (behaviour === 'silent') {
      await new Promise((resolve) => setTimeout(resolve, timeoutMs));
      throw noAnswer();
    }
    if (command === 'ping') return { id: 'x', status: this.pingStatus.get(thingName) ?? 'idle' };
    return { id: 'x', status: 'accepted' };
  }

  /** The payload of the last capture command sent to `thingName`. */
  lastCapture(thingName: string): CaptureCommandPayload {
    const last = this.sent
      .filter((s) => s.thingName === thingName && s.command === 'capture')
      .at(-1);
    if (!last) throw new Error(`no capture sent to ${thingName}`);
    return last.payload as CaptureCommandPayload;
  }
}

export async function createOrganization(db: Database, name: string): Promise<number> {
  const [row] = await db.insert(organizations).values({ name }).returning({ id: organizations.id });
  return row!.id;
}

let thingCounter = 0;
/** A booth row with known credentials, linked to `orgId` (or not), at `pricePaise`. */
export async function createBooth(
  db: Database,
  link: ScriptedLink,
  options: {
    orgId: number | null;
    pricePaise?: number;
    name?: string;
    behaviour?: BoothBehaviour;
    /** The recorded status; a scripted booth is connected and idle unless a test says not. */
    status?: string;
  },
) {
  thingCounter += 1;
  const thingName = `fb-test${process.pid % 1000}x${thingCounter}`;
  const secret = newDeviceSecret();
  const [row] = await db
    .insert(devices)
    .values({
      name: options.name ?? `Booth ${thingCounter}`,
      orgId: options.orgId,
      thingName,
      secretHash: hashDeviceSecret(secret),
      pricePaise: options.pricePaise ?? 0,
      status: options.status ?? 'idle',
    })
    .returning({ id: devices.id });
  link.behaviour.set(thingName, options.behaviour ?? 'accept');
  return {
    id: row!.id,
    thingName,
    secret,
    auth: { authorization: `Device ${thingName}:${secret}` },
  };
}

/** A template with `slots` image slots, associated with `orgIds`. */
export async function createTemplate(
  db: Database,
  options: {
    orgIds: number[];
    slots?: number;
    isDuplicated?: boolean;
    orientation?: 'portrait' | 'landscape';
    foregroundKey?: string | null;
  },
) {
  const [template] = await db
    .insert(templates)
    .values({
      name: 'Strips',
      orientation: options.orientation ?? 'portrait',
      isCut: true,
      isDuplicated: options.isDuplicated ?? false,
      foregroundKey: options.foregroundKey ?? null,
    })
    .returning({ id: templates.id });
  const id = template!.id;
  const slots = options.slots ?? 3;
  if (slots > 0) {
    await db.insert(templateImages).values(
      Array.from({ length: slots }, (_, i) => ({
        templateId: id,
        x: 61,
        y: 555 + i * 885,
        w: 1080,
        h: 720,
        filter: i === 0 ? 'bw' : 'none',
      })),
    );
  }
  if (options.orgIds.length > 0) {
    await db
      .insert(templateOrganizations)
      .values(options.orgIds.map((orgId) => ({ templateId: id, orgId })));
  }
  return id;
}

export function capture(app: FastifyInstance, token: string, deviceId: number, templateId: number) {
  return app.inject({
    method: 'POST',
    url: `/api/regular/devices/${deviceId}/capture`,
    headers: bearer(token),
    payload: { template_id: templateId },
  });
}

/** A real JPEG, `width` × 2/3 `width`, with some structure so it compresses like a photo. */
export function makeJpeg(width = 2400): Promise<Buffer> {
  const height = Math.round((width * 2) / 3);
  return sharp({
    create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } },
  })
    .composite([
      {
        input: Buffer.from(
          `<svg width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${height / 3}" fill="#2050c0"/></svg>`,
        ),
      },
    ])
    .jpeg({ quality: 85 })
    .toBuffer();
}
