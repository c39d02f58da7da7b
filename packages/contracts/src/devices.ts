import { z } from 'zod';
import { CaptureKindSchema } from './capture-kind.js';
import { DB_INT_MAX, hasNoNul, idSchema, listOf, nulMessage, TimestampSchema } from './common.js';
import {
  DEVICE_MESSAGES,
  DEVICE_PRICE_MAX_RUPEES,
  PRINTS_LEFT_MAX,
  PRINTS_LEFT_MIN,
} from './rules.js';

/** The staff API's Device (staff spec section 3). */
export const DeviceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  org_id: z.number().int().nullable(),
  org_name: z.string().nullable(),
  /** The serial; also the booth's MQTT user name. */
  thing_name: z.string(),
  status: z.string(),
  software_channel_id: z.number().int().nullable(),
  software_channel_name: z.string().nullable(),
  software_version: z.string().nullable(),
  price_rupees: z.number(),
  prints_left: z.number().int(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
  pinged_at: TimestampSchema.nullable(),
});
export type Device = z.infer<typeof DeviceSchema>;
/** GET devices: one page of devices and how many match. */
export const DeviceListSchema = listOf(DeviceSchema);
export type DeviceList = z.infer<typeof DeviceListSchema>;

/**
 * The environment a booth agent needs (apps/booth-agent/src/env.ts), as the server knows it:
 * the broker as booths reach it (BOOTH_MQTT_PUBLIC_URL, else derived), the serial, the secret
 * and this server's address (PUBLIC_URL, else the address the request came to).
 */
export const BoothEnvSchema = z.object({
  BOOTH_MQTT_URL: z.string(),
  BOOTH_THING_NAME: z.string(),
  BOOTH_SECRET: z.string(),
  BOOTH_SERVER_URL: z.string(),
});
export type BoothEnv = z.infer<typeof BoothEnvSchema>;

/**
 * POST devices: the new device and its broker secret, which is shown this once only, with the
 * environment block to paste into the booth (`booth_env`, beyond the spec).
 */
export const RegisteredDeviceSchema = DeviceSchema.extend({
  secret: z.string(),
  booth_env: BoothEnvSchema,
});
export type RegisteredDevice = z.infer<typeof RegisteredDeviceSchema>;

const DEVICE_NAME_NUL = nulMessage('Device name');
const DEVICE_NAME_TOO_LONG = 'Device name must be at most 100 characters.';

/** POST devices: no body (the spec), or an optional name. */
export const RegisterDeviceSchema = z
  .object({
    name: z
      .string({ error: DEVICE_MESSAGES.nameEmpty })
      .trim()
      .min(1, DEVICE_MESSAGES.nameEmpty)
      .refine(hasNoNul, DEVICE_NAME_NUL)
      .max(100, DEVICE_NAME_TOO_LONG)
      .optional(),
  })
  .strict()
  .nullish();
export type RegisterDevice = z.infer<typeof RegisterDeviceSchema>;

/** The visitor API's Device (visitor spec section 3). */
export const VisitorDeviceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  org_name: z.string().nullable(),
  price_rupees: z.number(),
  status: z.string(),
});
export type VisitorDevice = z.infer<typeof VisitorDeviceSchema>;

export const DevicePingResultSchema = z.object({ status: z.string() });
export type DevicePingResult = z.infer<typeof DevicePingResultSchema>;

const PATCH_FIELDS = ['name', 'software_channel_id', 'prints_left', 'price_rupees'] as const;

/** PATCH devices/{id}: exactly one of the four fields, each with the spec's message. */
export const DevicePatchSchema = z
  .object({
    name: z
      .string({ error: DEVICE_MESSAGES.nameEmpty })
      .trim()
      .min(1, DEVICE_MESSAGES.nameEmpty)
      .refine(hasNoNul, DEVICE_NAME_NUL)
      .max(100, DEVICE_NAME_TOO_LONG)
      .optional(),
    software_channel_id: idSchema('Software channel must be a channel id or null.')
      .nullable()
      .optional(),
    prints_left: z
      .number({ error: DEVICE_MESSAGES.printsLeft })
      .int(DEVICE_MESSAGES.printsLeft)
      .min(PRINTS_LEFT_MIN, DEVICE_MESSAGES.printsLeft)
      .max(PRINTS_LEFT_MAX, DEVICE_MESSAGES.printsLeft)
      .optional(),
    price_rupees: z
      .number({ error: DEVICE_MESSAGES.price })
      .min(0, DEVICE_MESSAGES.price)
      .max(DEVICE_PRICE_MAX_RUPEES, DEVICE_MESSAGES.price)
      .transform((rupees) => Math.round(rupees * 100) / 100)
      .optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    const given = PATCH_FIELDS.filter((field) => body[field] !== undefined);
    if (given.length === 0) ctx.addIssue({ code: 'custom', message: DEVICE_MESSAGES.noChanges });
    if (given.length > 1) ctx.addIssue({ code: 'custom', message: DEVICE_MESSAGES.oneChange });
  });
export type DevicePatch = z.infer<typeof DevicePatchSchema>;

const ORG_ID_INVALID = 'Organization ID must be a positive whole number.';

/** PATCH devices/{id}/link: the id may come as a number or as the dialog's (trimmed) text. */
export const DeviceLinkSchema = z.object({
  org_id: z.preprocess(
    (value) => {
      if (typeof value !== 'string') return value;
      const trimmed = value.trim();
      return trimmed === '' ? undefined : Number(trimmed);
    },
    z
      .number({
        error: (issue) =>
          issue.input === undefined || issue.input === null
            ? DEVICE_MESSAGES.orgIdRequired
            : ORG_ID_INVALID,
      })
      .int(ORG_ID_INVALID)
      .positive(ORG_ID_INVALID)
      .max(DB_INT_MAX, ORG_ID_INVALID),
  ),
});
/** Not `DeviceLink`: the server's MQTT line to the booths already has that name. */
export type DeviceLinkRequest = z.infer<typeof DeviceLinkSchema>;

export const DeviceErrorSchema = z.object({
  id: z.number().int(),
  created_at: TimestampSchema,
  error_message: z.string(),
});
export type DeviceError = z.infer<typeof DeviceErrorSchema>;
/** GET devices/{id}/errors: one page of a device's errors and how many match. */
export const DeviceErrorListSchema = listOf(DeviceErrorSchema);
export type DeviceErrorList = z.infer<typeof DeviceErrorListSchema>;

// ---- The MQTT protocol between the server and a booth (DESIGN.md "devices"). ----

export const DEVICE_COMMANDS = ['ping', 'capture', 'update'] as const;
export type DeviceCommand = (typeof DEVICE_COMMANDS)[number];

export const mqttTopics = {
  /** Retained; the booth publishes it, and its last will sets status offline. */
  status: (thingName: string) => `flashbooth/devices/${thingName}/status`,
  /** Server → booth commands; only that booth may subscribe. */
  commands: (thingName: string) => `flashbooth/devices/${thingName}/commands`,
  /** Replies to one server instance (the command's reply_to). */
  replies: (instanceId: string) => `flashbooth/server/${instanceId}/replies`,
  /** Booth → server: entries for the device's error log (DeviceErrorReportSchema). */
  errors: (thingName: string) => `flashbooth/devices/${thingName}/errors`,
  /**
   * Server → booth, retained: settings staff changed while the booth may be away (restock).
   * Only that booth may subscribe; only the server may publish.
   */
  settings: (thingName: string) => `flashbooth/devices/${thingName}/settings`,
  allStatuses: 'flashbooth/devices/+/status',
  allErrors: 'flashbooth/devices/+/errors',
} as const;

/**
 * A CUPS queue's state as the booth reads it from `lpstat` (issue 22): `idle` and `printing` are
 * fine; `paper_out`, `ink_out` and `stopped` need someone at the booth; `unknown` when the booth
 * cannot tell (no CUPS, or the simulated printer reports `idle`).
 */
export const PRINTER_STATES = [
  'idle',
  'printing',
  'paper_out',
  'ink_out',
  'stopped',
  'unknown',
] as const;
export type PrinterState = (typeof PRINTER_STATES)[number];

const healthText = z.string().max(500).refine(hasNoNul);

/**
 * The booth's health, sent with every status report (issue 22) and kept by the server with the
 * device: the camera's last check, the printer queue, disk space, the delivery queue and when an
 * item was last delivered. Every part is optional so an older agent's status stays valid.
 */
export const DeviceHealthSchema = z.object({
  camera: z
    .object({
      /** The BOOTH_CAMERA driver: simulated, folder, gphoto2, webcam or rpicam. */
      driver: z.string().max(50).refine(hasNoNul),
      ok: z.boolean(),
      /** What went wrong, in words, with what to do (absent when ok). */
      message: healthText.nullish(),
      /** UTC, when the camera last took a photo or was checked. */
      checked_at: z.string().max(40).nullish(),
    })
    .optional(),
  printer: z
    .object({
      state: z.enum(PRINTER_STATES),
      message: healthText.nullish(),
    })
    .optional(),
  disk: z
    .object({
      free_bytes: z.number().int().min(0),
      total_bytes: z.number().int().min(0),
    })
    .optional(),
  /** The on-disk delivery queue: items written at the booth and not yet confirmed. */
  queue: z
    .object({
      items: z.number().int().min(0),
      bytes: z.number().int().min(0),
      /** UTC, when the oldest waiting item was captured. */
      oldest_at: z.string().max(40).nullish(),
      /** The booth's own limit (BOOTH_QUEUE_WARN_ITEMS) is passed: the console warns. */
      over_limit: z.boolean().optional(),
    })
    .optional(),
  /** UTC, when the booth last had an upload confirmed. */
  last_delivery_at: z.string().max(40).nullish(),
});
export type DeviceHealth = z.infer<typeof DeviceHealthSchema>;

/** How many days the console's delivery figures cover. */
export const DELIVERY_WINDOW_DAYS = 7;
/** An item not delivered this long after its capture is late (issue 22; the legal pages' hour). */
export const DELIVERY_LATE_MINUTES = 60;

/**
 * A booth's deliveries (issue 22), from the server's records: the time from the end of each
 * capture to its confirmed upload over the last `days` days (median and 95th percentile, in
 * seconds; null with no delivery), the items of accepted captures still waiting, and how many
 * of them are late (not delivered an hour after their capture).
 */
export const DeviceDeliverySchema = z.object({
  days: z.number().int(),
  delivered_count: z.number().int().min(0),
  median_seconds: z.number().nullable(),
  p95_seconds: z.number().nullable(),
  waiting_count: z.number().int().min(0),
  late_count: z.number().int().min(0),
  oldest_waiting_at: TimestampSchema.nullable(),
});
export type DeviceDelivery = z.infer<typeof DeviceDeliverySchema>;

/** GET devices/{id}/health (staff, beyond the spec): the booth's last health and its deliveries. */
export const DeviceHealthViewSchema = z.object({
  status: z.string(),
  health: DeviceHealthSchema.nullable(),
  /** When the health was reported (null: this booth's agent never sent one). */
  health_at: TimestampSchema.nullable(),
  delivery: DeviceDeliverySchema,
});
export type DeviceHealthView = z.infer<typeof DeviceHealthViewSchema>;

/**
 * Where a status report stands among its booth's reports, so that a server which gets them out of
 * order (several instances sharing the reports, a write retried after the database came back)
 * keeps the newest: compared as (boot, connection, seq). `boot` grows with each start of the
 * booth's agent, `connection` with each connection to the broker in one run, `seq` with each
 * report in one run. The last will names its connection and has no `seq`: it comes after every
 * report of that connection and before any of the next.
 */
export const StatusOrderSchema = z.object({
  boot: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  connection: z.number().int().min(0).max(2_147_483_647),
  seq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});
export type StatusOrder = z.infer<typeof StatusOrderSchema>;

/** flashbooth/devices/{thing}/status */
export const DeviceStatusMessageSchema = z.object({
  status: z.string().min(1).max(50).refine(hasNoNul),
  software_version: z.string().max(100).refine(hasNoNul).nullish(),
  prints_left: z.number().int().min(0).max(100_000).nullish(),
  /**
   * The newest settings revision the booth has applied. The server takes `prints_left` from a
   * status only when this is at least the revision it last published, so a report from before a
   * restock never overwrites the restocked value.
   */
  settings_revision: z.number().int().min(0).nullish(),
  /** UTC, when the booth reported it. */
  at: z.string().optional(),
  health: DeviceHealthSchema.optional(),
  /** Absent from agents before it: their reports are recorded in the order they are heard. */
  order: StatusOrderSchema.optional(),
});
export type DeviceStatusMessage = z.infer<typeof DeviceStatusMessageSchema>;

/** flashbooth/devices/{thing}/commands */
export const DeviceCommandMessageSchema = z.object({
  /** Correlation id, echoed by the reply. */
  id: z.string().min(1).max(100),
  command: z.enum(DEVICE_COMMANDS),
  payload: z.record(z.string(), z.unknown()).default({}),
  /** The topic to publish the reply to. */
  reply_to: z.string(),
  /** UTC ISO-8601: the server has given up after this; a booth ignores a command it gets later. */
  expires_at: z.string().optional(),
});
export type DeviceCommandMessage = z.infer<typeof DeviceCommandMessageSchema>;

/**
 * A reply on reply_to: the command's id plus the command's own result fields
 * (ping: status, software_version, prints_left, settings_revision); `error` when the booth refuses.
 */
export const DeviceReplyMessageSchema = z.looseObject({
  id: z.string().min(1).max(100),
  status: z.string().max(50).refine(hasNoNul).optional(),
  software_version: z.string().max(100).refine(hasNoNul).nullish(),
  prints_left: z.number().int().min(0).max(100_000).nullish(),
  /**
   * Ping: the settings revision the booth has applied, as in its status. A value that is not a
   * whole number of at least 0 counts as absent rather than losing the whole reply.
   */
  settings_revision: z.number().int().min(0).nullish().catch(undefined),
  error: z.string().max(1000).optional(),
});
export type DeviceReplyMessage = z.infer<typeof DeviceReplyMessageSchema>;

// ---- The capture command (DESIGN.md 2b). ----

/**
 * Photos a booth takes for a template: one per image slot, or the first half's only when
 * `is_duplicated` repeats one strip (an odd count rounds up so every slot has a photo).
 */
export function captureCount(slotCount: number, isDuplicated: boolean): number {
  return isDuplicated ? Math.ceil(slotCount / 2) : slotCount;
}

/** One image slot of the template, in print-canvas pixels, in slot order. */
export const CaptureSlotSchema = z.object({
  x: z.number(),
  y: z.number(),
  w: z.number(),
  h: z.number(),
  filter: z.string(),
});
export type CaptureSlot = z.infer<typeof CaptureSlotSchema>;

/** A motion template's settings as the booth records them. */
export const CaptureMotionSchema = z.object({
  /** gif: stills taken. */
  frames: z.number().int(),
  /** video: clip length in seconds. */
  seconds: z.number(),
  /** Playback speed. */
  speed: z.number(),
  /** Whether a print is made from stills of the recording too. */
  print: z.boolean(),
});
export type CaptureMotion = z.infer<typeof CaptureMotionSchema>;

/** An upload of a composed print: one JPEG. */
export const CapturePrintUploadSchema = z.object({
  media_id: z.number().int().positive(),
  upload_url: z.string(),
  content_type: z.literal('image/jpeg'),
});
export type CapturePrintUpload = z.infer<typeof CapturePrintUploadSchema>;

/**
 * The upload of a motion item: the MP4 (`upload_url`), its poster JPEG, its animated WebP preview
 * and, for the gif kind, the `.gif` (null otherwise). Each is a PUT of its own content type.
 */
export const CaptureMotionUploadSchema = z.object({
  media_id: z.number().int().positive(),
  upload_url: z.string(),
  content_type: z.literal('video/mp4'),
  poster_upload_url: z.string(),
  preview_upload_url: z.string(),
  gif_upload_url: z.string().nullable(),
});
export type CaptureMotionUpload = z.infer<typeof CaptureMotionUploadSchema>;

export const CaptureUploadSchema = z.discriminatedUnion('content_type', [
  CapturePrintUploadSchema,
  CaptureMotionUploadSchema,
]);
export type CaptureUpload = z.infer<typeof CaptureUploadSchema>;

/**
 * The payload of the `capture` command. The booth answers `{id, status: "accepted"}` once the
 * session is set up, or `{id, error}` to refuse (busy, roll empty); then it uploads each item
 * with a PUT of `content_type` to its `upload_url` (a motion item: also its poster, preview and
 * gif) and confirms it with `POST /api/device/media/{media_id}/uploaded`.
 *
 * A motion kind counts down once and records; its uploads list the motion item first, then the
 * print when `motion.print`, and `total_captures` is the stills that print needs (picked evenly
 * from the recorded frames). A payload from before motion (no `capture_kind`, no `motion`) reads
 * as a photo.
 */
export const CaptureCommandPayloadSchema = z.object({
  capture_id: z.uuid(),
  template: z.object({
    id: z.number().int(),
    name: z.string(),
    orientation: z.enum(['portrait', 'landscape']),
    is_cut: z.boolean(),
    is_duplicated: z.boolean(),
    images: z.array(CaptureSlotSchema),
    /** Presigned download of the foreground PNG, or null when the template has none. */
    foreground_url: z.string().nullable(),
    capture_kind: CaptureKindSchema.default('photo'),
    /** The motion settings; null for a photo. */
    motion: CaptureMotionSchema.nullable().default(null),
  }),
  /** Stills to take: the print's (a motion kind without a print: 0). */
  total_captures: z.number().int().nonnegative(),
  uploads: z.array(CaptureUploadSchema),
});
export type CaptureCommandPayload = z.infer<typeof CaptureCommandPayloadSchema>;

// ---- The update command (DESIGN.md 1: download the release file, verify, switch version). ----

/**
 * The payload of the `update` command: the release linked to the device's software channel. The
 * booth downloads `url` (a time-limited link), checks its size and SHA-256, installs it and then
 * reports `software_version: version`. It answers `{id, status: "updated" | "up_to_date"}`, or
 * `{id, error}` when the download or the checksum fails (the old version keeps running).
 */
export const DeviceUpdatePayloadSchema = z.object({
  release_id: z.number().int().positive(),
  version: z.string().min(1).max(100),
  url: z.string().min(1),
  /** Lower-case hex SHA-256 of the release file. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  size_bytes: z.number().int().nonnegative(),
});
export type DeviceUpdatePayload = z.infer<typeof DeviceUpdatePayloadSchema>;

// ---- Error reports and settings (DESIGN.md 2b step 4; staff restock). ----

/**
 * flashbooth/devices/{thing}/errors: one entry of the device's error log. `report_id` makes a
 * report idempotent (QoS 1 may deliver it twice; several server instances may hear it). When the
 * error ended a capture session, `capture_id` names it and `delivered_media_ids` lists the items
 * already uploaded and confirmed: none delivered means the visitor's entitlement is given back.
 */
export const DeviceErrorReportSchema = z.object({
  report_id: z.uuid(),
  message: z.string().min(1).max(4000).refine(hasNoNul),
  capture_id: z.uuid().nullish(),
  delivered_media_ids: z.array(z.number().int().positive().max(DB_INT_MAX)).max(50).nullish(),
  /** UTC, when the booth saw it. */
  at: z.string().optional(),
});
export type DeviceErrorReport = z.infer<typeof DeviceErrorReportSchema>;

/**
 * flashbooth/devices/{thing}/settings (retained). `revision` grows with every change; a booth
 * applies a message whose revision is newer than the one it last applied (kept across restarts)
 * and reports that revision in its status.
 */
export const DeviceSettingsMessageSchema = z.object({
  revision: z.number().int().min(1),
  /** Set when staff restocked: the roll now holds this many prints. */
  prints_left: z.number().int().min(0).max(100_000),
});
export type DeviceSettingsMessage = z.infer<typeof DeviceSettingsMessageSchema>;

// ---- Live status (issue 11): GET /api/enterprise/devices/status-stream (server-sent events). ----

/**
 * One `data:` line of the staff status stream (event name `status`): a device's live fields after
 * the server recorded a change (status report, ping, last will, restock, price, channel).
 */
export const DeviceStatusEventSchema = z.object({
  id: z.number().int(),
  status: z.string(),
  prints_left: z.number().int().nullable(),
  software_version: z.string().nullable(),
  pinged_at: TimestampSchema.nullable(),
  updated_at: TimestampSchema,
});
export type DeviceStatusEvent = z.infer<typeof DeviceStatusEventSchema>;

// ---- The booth's own credential check (issue 39): GET /api/device/whoami. ----

/**
 * Why the server refused a booth's `Authorization: Device <thing_name>:<secret>` on
 * GET /api/device/whoami (the 401's `reason`): no device has that thing name, or the secret is
 * not that device's (replaced by a later enrollment or registration). `flashbooth-booth doctor`
 * names the setting to fix from it.
 */
export const DEVICE_LOGIN_REFUSALS = ['unknown_device', 'wrong_secret'] as const;
export type DeviceLoginRefusal = (typeof DEVICE_LOGIN_REFUSALS)[number];

/** GET /api/device/whoami: the device the booth's credentials belong to. */
export const DeviceWhoAmISchema = z.object({
  id: z.number().int(),
  thing_name: z.string(),
  name: z.string(),
  /** The organization the booth is assigned to, if any. */
  organization: z.string().nullable(),
});
export type DeviceWhoAmI = z.infer<typeof DeviceWhoAmISchema>;
