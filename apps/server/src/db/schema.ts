import {
  CREDIT_LEDGER_REASONS,
  type DeviceHealth,
  ROLLOUT_DEVICE_STATES,
  ROLLOUT_STATES,
} from '@flashbooth/contracts';
import { inArray, sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  date,
  doublePrecision,
  type ExtraConfigColumn,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * Drizzle mirror of migrations/*.sql (the SQL files are the source of truth): every column,
 * constraint and index, with the migrations' names, so test/db/schema-drift.int.test.ts can
 * compare the two exactly. Constraints the migrations leave unnamed stay unnamed here
 * (PostgreSQL names them `<table>_<column>_key`, `_fkey`, `_check`); checks are declared with
 * those names.
 */
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** An index key in a migration's plain `DESC` order (Drizzle's `.desc()` alone is NULLS LAST). */
const descending = (column: ExtraConfigColumn) => column.desc().nullsFirst();
/**
 * A text column's words as the media search finds them (db/media-search.ts; migration 0026,
 * `search_words` since 0030: punctuation is a space, each emoji a word).
 */
const wordsOf = (column: ExtraConfigColumn) => sql`search_words(${column})`;
/**
 * The `CHECK (column IN (...))` a migration puts on an enum-like text column; `values` is the
 * list the column's `enum` is declared with (the extra-config column does not carry it).
 */
const oneOf = (name: string, column: ExtraConfigColumn, values: readonly [string, ...string[]]) =>
  check(name, inArray(column, values));

// The values of the enum-like text columns, in the order of their CHECK in the migrations.
const POOLS = ['regular', 'enterprise'] as const;
const MEMBER_ROLES = ['member', 'admin'] as const;
const OTP_EVENT_KINDS = ['send', 'fail', 'link_fail'] as const;
const ORIENTATIONS = ['portrait', 'landscape'] as const;
const MEDIA_TYPES = ['image', 'video'] as const;
const CAPTURE_KINDS = ['photo', 'gif', 'boomerang', 'video'] as const;
const CAPTURE_STATES = ['requested', 'accepted', 'delivered', 'failed'] as const;
const PAYMENT_PROVIDERS = ['sandbox', 'phonepe'] as const;
const PAYMENT_STATES = ['PENDING', 'COMPLETED', 'FAILED', 'REFUND_PENDING', 'REFUNDED'] as const;
const PAYMENT_FAILURE_REASONS = ['declined', 'expired', 'amount_mismatch', 'cancelled'] as const;
const REFUND_DESTINATIONS = ['source', 'credit'] as const;
/** Refunds and the sandbox's orders and refunds. */
const PROVIDER_STATES = ['PENDING', 'COMPLETED', 'FAILED'] as const;

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    pool: text('pool', { enum: POOLS }).notNull(),
    phone: text('phone').notNull(),
    name: text('name').notNull(),
    email: text('email'),
    dob: date('dob', { mode: 'string' }),
    gender: text('gender'),
    isSuperUser: boolean('is_super_user').notNull().default(false),
    isFlashboothAdmin: boolean('is_flashbooth_admin').notNull().default(false),
    creditsPaise: integer('credits_paise').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    // Migration 0018 (retention): the last sign-in or session refresh (kept by a trigger on
    // refresh_tokens) and when the person was told the inactive account will be deleted.
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    erasureNoticeAt: timestamp('erasure_notice_at', { withTimezone: true }),
    // Migration 0021: a person leased by the retention jobs while their notice SMS is sent.
    mediaNoticeLeaseUntil: timestamp('media_notice_lease_until', { withTimezone: true }),
    erasureNoticeLeaseUntil: timestamp('erasure_notice_lease_until', { withTimezone: true }),
  },
  (table) => [
    unique().on(table.pool, table.phone),
    oneOf('users_pool_check', table.pool, POOLS),
    check('users_credits_paise_check', sql`${table.creditsPaise} >= 0`),
    // Substring search on user names (pg_trgm, migration 0014: guests, members).
    index('users_name_trgm_idx').using('gin', table.name.op('gin_trgm_ops')),
    // The media search's words in user names (migration 0026, db/media-search.ts).
    index('users_name_words_idx').using('gin', wordsOf(table.name)),
    // Inactive accounts by their last sign-in (migration 0018).
    index('users_last_sign_in_idx').on(table.lastSignInAt, table.id),
  ],
);
export type UserRow = typeof users.$inferSelect;

export const organizations = pgTable(
  'organizations',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email'),
    phone: text('phone'),
    address: text('address'),
    logoKey: text('logo_key'),
    createdAt: createdAt(),
  },
  (table) => [
    // Substring search on organization names (pg_trgm, migration 0014).
    index('organizations_name_trgm_idx').using('gin', table.name.op('gin_trgm_ops')),
    // The media search's words in organization names (migration 0026).
    index('organizations_name_words_idx').using('gin', wordsOf(table.name)),
  ],
);

export const organizationMembers = pgTable(
  'organization_members',
  {
    orgId: integer('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: MEMBER_ROLES }).notNull(),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.orgId, table.userId] }),
    oneOf('organization_members_role_check', table.role, MEMBER_ROLES),
    index('organization_members_user_idx').on(table.userId),
  ],
);

const INVITATION_STATES = ['pending', 'accepted', 'denied', 'cancelled', 'expired'] as const;

/**
 * Migration 0009: invitations to an organization by phone (pending → accepted | denied | cancelled;
 * migration 0019: → expired once INVITE_TTL_DAYS have passed unanswered).
 */
export const organizationInvitations = pgTable(
  'organization_invitations',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    inviteePhone: text('invitee_phone').notNull(),
    role: text('role', { enum: MEMBER_ROLES }).notNull(),
    status: text('status', { enum: INVITATION_STATES }).notNull().default('pending'),
    invitedBy: integer('invited_by').references(() => users.id, { onDelete: 'set null' }),
    smsSentAt: timestamp('sms_sent_at', { withTimezone: true }),
    createdAt: createdAt(),
    respondedAt: timestamp('responded_at', { withTimezone: true }),
  },
  (table) => [
    check(
      'organization_invitations_invitee_phone_check',
      sql`${table.inviteePhone} ~ '^\\+[1-9][0-9]{7,14}$'`,
    ),
    oneOf('organization_invitations_role_check', table.role, MEMBER_ROLES),
    oneOf('organization_invitations_status_check', table.status, INVITATION_STATES),
    check(
      'organization_invitations_responded_check',
      sql`(${table.status} = 'pending') = (${table.respondedAt} is null)`,
    ),
    uniqueIndex('organization_invitations_pending_once')
      .on(table.orgId, table.inviteePhone)
      .where(sql`${table.status} = 'pending'`),
    index('organization_invitations_phone_idx').on(table.inviteePhone, descending(table.createdAt)),
    index('organization_invitations_invited_by_idx').on(table.invitedBy),
  ],
);
export type OrganizationInvitationRow = typeof organizationInvitations.$inferSelect;

export const otpCodes = pgTable(
  'otp_codes',
  {
    pool: text('pool').notNull(),
    phone: text('phone').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.pool, table.phone] }),
    // The sign-in purge (migration 0021).
    index('otp_codes_expires_idx').on(table.expiresAt),
  ],
);

export const otpEvents = pgTable(
  'otp_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    pool: text('pool').notNull(),
    phone: text('phone').notNull(),
    ip: text('ip').notNull(),
    kind: text('kind', { enum: OTP_EVENT_KINDS }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    oneOf('otp_events_kind_check', table.kind, OTP_EVENT_KINDS),
    index('otp_events_phone_idx').on(table.pool, table.phone, table.kind, table.createdAt),
    index('otp_events_ip_idx').on(table.ip, table.kind, table.createdAt),
  ],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    pool: text('pool', { enum: POOLS }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    familyId: text('family_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index('refresh_tokens_family_idx').on(table.familyId),
    // The sign-in purge (migration 0021).
    index('refresh_tokens_expires_idx').on(table.expiresAt),
  ],
);

/** One-tap sign-in links (migration 0010): the token only as its SHA-256, single use. */
export const signInLinks = pgTable(
  'sign_in_links',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    pool: text('pool', { enum: POOLS }).notNull(),
    phone: text('phone').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    oneOf('sign_in_links_pool_check', table.pool, POOLS),
    check('sign_in_links_token_hash_check', sql`${table.tokenHash} ~ '^[0-9a-f]{64}$'`),
    index('sign_in_links_expires_idx').on(table.expiresAt),
  ],
);

export const smsOutbox = pgTable(
  'sms_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    phone: text('phone').notNull(),
    text: text('text').notNull(),
    code: text('code'),
    createdAt: createdAt(),
  },
  (table) => [index('sms_outbox_phone_idx').on(table.phone, table.id)],
);

export const devices = pgTable(
  'devices',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    orgId: integer('org_id').references(() => organizations.id, { onDelete: 'set null' }),
    thingName: text('thing_name').notNull().unique(),
    secretHash: text('secret_hash').notNull(),
    status: text('status').notNull().default('offline'),
    softwareChannelId: integer('software_channel_id').references(() => softwareChannels.id, {
      onDelete: 'set null',
    }),
    softwareVersion: text('software_version'),
    pricePaise: integer('price_paise').notNull().default(0),
    printsLeft: integer('prints_left').notNull().default(700),
    /** Grows with every settings change published to the booth (migration 0005). */
    settingsRevision: integer('settings_revision').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    pingedAt: timestamp('pinged_at', { withTimezone: true }),
    // Migration 0016: the booth's last health report (DeviceHealthSchema) and when it came.
    health: jsonb('health').$type<DeviceHealth>(),
    healthAt: timestamp('health_at', { withTimezone: true }),
    // Migration 0025: the recorded status's place among the booth's reports (StatusOrderSchema;
    // a will's seq is STATUS_WILL_SEQ) and when it was recorded.
    statusBoot: bigint('status_boot', { mode: 'number' }),
    statusConnection: integer('status_connection'),
    statusSeq: bigint('status_seq', { mode: 'number' }),
    statusOrderAt: timestamp('status_order_at', { withTimezone: true }),
  },
  (table) => [
    check('devices_price_paise_check', sql`${table.pricePaise} >= 0`),
    check('devices_prints_left_check', sql`${table.printsLeft} >= 0`),
    check('devices_settings_revision_check', sql`${table.settingsRevision} >= 0`),
    index('devices_org_idx').on(table.orgId),
    index('devices_software_channel_idx').on(table.softwareChannelId),
    // Substring search on booth names (pg_trgm, migration 0014).
    index('devices_name_trgm_idx').using('gin', table.name.op('gin_trgm_ops')),
    // The media search's words in booth names (migration 0026).
    index('devices_name_words_idx').using('gin', wordsOf(table.name)),
  ],
);
export type DeviceRow = typeof devices.$inferSelect;

/** Booth software (0006): a release is a version with one uploaded file, checksummed on confirm. */
export const softwareReleases = pgTable(
  'software_releases',
  {
    id: serial('id').primaryKey(),
    version: text('version').notNull(),
    releaseNotes: text('release_notes'),
    s3Key: text('s3_key'),
    sha256: text('sha256'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check('software_releases_version_check', sql`${table.version} <> ''`),
    check('software_releases_sha256_check', sql`${table.sha256} ~ '^[0-9a-f]{64}$'`),
    check('software_releases_size_bytes_check', sql`${table.sizeBytes} >= 0`),
    // A file is either there with its checksum and size, or none of the three is.
    check(
      'software_releases_check',
      sql`(${table.s3Key} is null) = (${table.sha256} is null) and (${table.s3Key} is null) = (${table.sizeBytes} is null)`,
    ),
    // Versions are unique regardless of case.
    uniqueIndex('software_releases_version_key').on(sql`lower(${table.version})`),
    index('software_releases_created_idx').on(descending(table.createdAt), descending(table.id)),
  ],
);
export type SoftwareReleaseRow = typeof softwareReleases.$inferSelect;

export const softwareChannels = pgTable(
  'software_channels',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description'),
    releaseId: integer('release_id').references(() => softwareReleases.id, {
      onDelete: 'restrict',
    }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check('software_channels_name_check', sql`${table.name} <> ''`),
    index('software_channels_release_idx').on(table.releaseId),
    index('software_channels_created_idx').on(descending(table.createdAt), descending(table.id)),
  ],
);
export type SoftwareChannelRow = typeof softwareChannels.$inferSelect;

export const deviceErrors = pgTable(
  'device_errors',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    errorMessage: text('error_message').notNull(),
    /** The booth's report id (unique per device); null for entries the server writes. */
    reportId: uuid('report_id'),
    createdAt: createdAt(),
  },
  (table) => [
    index('device_errors_device_idx').on(
      table.deviceId,
      descending(table.createdAt),
      descending(table.id),
    ),
    uniqueIndex('device_errors_report_once').on(table.deviceId, table.reportId),
  ],
);
export type DeviceErrorRow = typeof deviceErrors.$inferSelect;

export const templates = pgTable(
  'templates',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    orientation: text('orientation', { enum: ORIENTATIONS }).notNull().default('portrait'),
    isCut: boolean('is_cut').notNull().default(false),
    isDuplicated: boolean('is_duplicated').notNull().default(false),
    sampleKey: text('sample_key'),
    foregroundKey: text('foreground_key'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    // Migration 0022 (motion): what the booth captures and the motion kinds' settings.
    captureKind: text('capture_kind', { enum: CAPTURE_KINDS }).notNull().default('photo'),
    motionFrames: integer('motion_frames').notNull().default(4),
    motionSeconds: doublePrecision('motion_seconds').notNull().default(5),
    motionSpeed: doublePrecision('motion_speed').notNull().default(1),
    motionPrints: boolean('motion_prints').notNull().default(true),
  },
  (table) => [
    oneOf('templates_orientation_check', table.orientation, ORIENTATIONS),
    oneOf('templates_capture_kind_check', table.captureKind, CAPTURE_KINDS),
    check('templates_motion_frames_check', sql`${table.motionFrames} between 2 and 6`),
    check('templates_motion_seconds_check', sql`${table.motionSeconds} between 3 and 10`),
    check('templates_motion_speed_check', sql`${table.motionSpeed} between 0.5 and 2`),
  ],
);
export type TemplateRow = typeof templates.$inferSelect;

export const templateImages = pgTable(
  'template_images',
  {
    id: serial('id').primaryKey(),
    templateId: integer('template_id')
      .notNull()
      .references(() => templates.id, { onDelete: 'cascade' }),
    x: doublePrecision('x').notNull(),
    y: doublePrecision('y').notNull(),
    w: doublePrecision('w').notNull(),
    h: doublePrecision('h').notNull(),
    filter: text('filter').notNull().default('none'),
    createdAt: createdAt(),
  },
  (table) => [
    check('template_images_x_check', sql`${table.x} >= 0`),
    check('template_images_y_check', sql`${table.y} >= 0`),
    check('template_images_w_check', sql`${table.w} > 0`),
    check('template_images_h_check', sql`${table.h} > 0`),
    index('template_images_template_idx').on(table.templateId, table.id),
  ],
);
export type TemplateImageRow = typeof templateImages.$inferSelect;

export const templateOrganizations = pgTable(
  'template_organizations',
  {
    templateId: integer('template_id')
      .notNull()
      .references(() => templates.id, { onDelete: 'cascade' }),
    orgId: integer('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.templateId, table.orgId] }),
    // A booth lists its organization's templates in id order (cursor paging).
    index('template_organizations_org_idx').on(table.orgId, table.templateId),
  ],
);

export const media = pgTable(
  'media',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id').references(() => devices.id, { onDelete: 'set null' }),
    orgId: integer('org_id').references(() => organizations.id, { onDelete: 'set null' }),
    templateId: integer('template_id').references(() => templates.id, { onDelete: 'set null' }),
    captureId: uuid('capture_id').notNull(),
    mediaType: text('media_type', { enum: MEDIA_TYPES }).notNull().default('image'),
    s3Key: text('s3_key').notNull().unique(),
    lowresKey: text('lowres_key'),
    orientation: text('orientation', { enum: ORIENTATIONS }).notNull().default('portrait'),
    caption: text('caption'),
    isPublic: boolean('is_public').notNull().default(false),
    isRepostAllowed: boolean('is_repost_allowed').notNull().default(true),
    isDownloaded: boolean('is_downloaded').notNull().default(false),
    isShared: boolean('is_shared').notNull().default(false),
    isUploaded: boolean('is_uploaded').notNull().default(false),
    // Migration 0008: the background preview's attempts, lease and permanent failure.
    previewAttempts: integer('preview_attempts').notNull().default(0),
    previewClaimedUntil: timestamp('preview_claimed_until', { withTimezone: true }),
    previewError: text('preview_error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    // Migration 0013 (the wall): the exact like count (kept by a trigger on media_likes) and
    // a moderator's hide.
    likesCount: integer('likes_count').notNull().default(0),
    hiddenFromWallAt: timestamp('hidden_from_wall_at', { withTimezone: true }),
    hiddenFromWallBy: integer('hidden_from_wall_by').references((): AnyPgColumn => users.id, {
      onDelete: 'set null',
    }),
    // Migration 0016 (delivery): when the booth's capture ended, when its upload was confirmed,
    // and when the late sweep found it still waiting an hour after the capture.
    capturedAt: timestamp('captured_at', { withTimezone: true }),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }),
    lateAt: timestamp('late_at', { withTimezone: true }),
    // Migration 0018 (retention): when the visitor was told the item will be deleted.
    retentionNoticeAt: timestamp('retention_notice_at', { withTimezone: true }),
    // Migration 0020: the share page's unguessable id (/p/{public_id}), made by the database for
    // every row (122 random bits as base64url).
    publicId: text('public_id')
      .notNull()
      .unique()
      .default(
        sql`rtrim(translate(encode(uuid_send(gen_random_uuid()), 'base64'::text), '+/'::text, '-_'::text), '='::text)`,
      ),
    // Migration 0022 (motion): a video item's animated WebP preview and its .gif (gif kind).
    previewKey: text('preview_key'),
    gifKey: text('gif_key'),
  },
  (table) => [
    oneOf('media_media_type_check', table.mediaType, MEDIA_TYPES),
    oneOf('media_orientation_check', table.orientation, ORIENTATIONS),
    check('media_preview_attempts_check', sql`${table.previewAttempts} >= 0`),
    // My Media: a visitor's items newest first.
    index('media_user_idx').on(table.userId, descending(table.createdAt), descending(table.id)),
    index('media_capture_idx').on(table.captureId),
    index('media_device_idx').on(table.deviceId),
    // Guests of an organization (migration 0009): its visitors and their latest capture.
    index('media_org_user_idx').on(table.orgId, table.userId, descending(table.createdAt)),
    // The preview sweep's work list: uploaded items still waiting for a preview.
    index('media_preview_pending_idx')
      .on(table.id)
      .where(
        sql`${table.isUploaded} and ${table.lowresKey} is null and ${table.previewError} is null`,
      ),
    check('media_likes_count_check', sql`${table.likesCount} >= 0`),
    // The wall's pages: uploaded public items not hidden, newest first (migration 0013).
    index('media_wall_idx')
      .on(descending(table.createdAt), descending(table.id))
      .where(sql`${table.isPublic} and ${table.isUploaded} and ${table.hiddenFromWallAt} is null`),
    // The wall's search on captions' words, over the wall's items only (migrations 0026, 0030).
    index('media_wall_caption_words_idx')
      .using('gin', wordsOf(table.caption))
      .where(sql`${table.isPublic} and ${table.isUploaded} and ${table.hiddenFromWallAt} is null`),
    // The staff media views (migration 0015): uploaded items newest first, in all, of an
    // organization, of a booth, and their search on captions' words (migration 0026).
    index('media_uploaded_idx')
      .on(descending(table.createdAt), descending(table.id))
      .where(sql`${table.isUploaded}`),
    index('media_org_uploaded_idx')
      .on(table.orgId, descending(table.createdAt), descending(table.id))
      .where(sql`${table.isUploaded}`),
    // The kiosk wall of one organization (migration 0020): its newest items on the wall.
    index('media_org_wall_idx')
      .on(table.orgId, descending(table.createdAt), descending(table.id))
      .where(sql`${table.isPublic} and ${table.isUploaded} and ${table.hiddenFromWallAt} is null`),
    index('media_device_uploaded_idx')
      .on(table.deviceId, descending(table.createdAt), descending(table.id))
      .where(sql`${table.isUploaded}`),
    index('media_caption_words_idx')
      .using('gin', wordsOf(table.caption))
      .where(sql`${table.isUploaded}`),
    // The statistics' totals: an organization's visitors, their captures and the flags, in order.
    index('media_org_captures_idx')
      .on(
        table.orgId,
        table.userId,
        table.captureId,
        table.isShared,
        table.isDownloaded,
        table.mediaType,
      )
      .where(sql`${table.isUploaded}`),
    // Migration 0016: a booth's delivery times, and the late sweep's waiting items.
    index('media_device_delivered_idx')
      .on(table.deviceId, table.uploadedAt)
      .where(sql`${table.uploadedAt} is not null`),
    index('media_waiting_idx')
      .on(table.deviceId, table.createdAt)
      .where(sql`not ${table.isUploaded}`),
    index('media_org_late_idx')
      .on(table.orgId)
      .where(sql`${table.lateAt} is not null`),
    // Migration 0023: an organization's repost-allowed items newest first (its staff media view).
    index('media_org_repost_idx')
      .on(table.orgId, descending(table.createdAt), descending(table.id))
      .where(sql`${table.isUploaded} and ${table.isRepostAllowed}`),
    // Migration 0018: the retention job's scan, every item by age.
    index('media_created_idx').on(table.createdAt, table.id),
    // Migration 0021: the retention job's deletions, by when the owner was told.
    index('media_retention_notice_idx')
      .on(table.retentionNoticeAt)
      .where(sql`${table.retentionNoticeAt} is not null`),
  ],
);
export type MediaRow = typeof media.$inferSelect;

/**
 * How many media are on the wall (one row, id 1): the wall's total_count without a search, kept
 * exact by triggers on media in the changing statement's transaction (migration 0014).
 */
export const wallStats = pgTable(
  'wall_stats',
  {
    id: smallint('id').primaryKey(),
    mediaCount: integer('media_count').notNull(),
  },
  (table) => [
    check('wall_stats_id_check', sql`${table.id} = 1`),
    check('wall_stats_media_count_check', sql`${table.mediaCount} >= 0`),
  ],
);

// ---- Counters (migration 0023): kept exact by triggers on media, payment_transactions and
// payment_refunds in the changing transaction; media_counters_rebuild() recounts them all. ----

/** Uploaded media per organization, booth and day (UTC); 0 = no organization or booth. */
export const mediaDailyCounts = pgTable(
  'media_daily_counts',
  {
    orgId: integer('org_id').notNull(),
    deviceId: integer('device_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    media: integer('media').notNull(),
    photos: integer('photos').notNull(),
    videos: integer('videos').notNull(),
    shared: integer('shared').notNull(),
    downloaded: integer('downloaded').notNull(),
    repostAllowed: integer('repost_allowed').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.orgId, table.deviceId, table.day] }),
    index('media_daily_counts_device_idx').on(table.deviceId),
  ],
);

/** An organization's uploaded media per visitor and capture. */
export const orgCaptureCounts = pgTable(
  'org_capture_counts',
  {
    orgId: integer('org_id').notNull(),
    userId: integer('user_id').notNull(),
    captureId: uuid('capture_id').notNull(),
    media: integer('media').notNull(),
  },
  (table) => [primaryKey({ columns: [table.orgId, table.userId, table.captureId] })],
);

/** An organization's visitors: their uploaded media and distinct captures. */
export const orgUserCounts = pgTable(
  'org_user_counts',
  {
    orgId: integer('org_id').notNull(),
    userId: integer('user_id').notNull(),
    media: integer('media').notNull(),
    captures: integer('captures').notNull(),
  },
  (table) => [primaryKey({ columns: [table.orgId, table.userId] })],
);

/** An organization's captures, visitors and visitors with two or more captures. */
export const orgStatTotals = pgTable('org_stat_totals', {
  orgId: integer('org_id').primaryKey(),
  captures: integer('captures').notNull(),
  users: integer('users').notNull(),
  repeatedUsers: integer('repeated_users').notNull(),
});

/** An organization's uploaded media per template and capture. */
export const orgTemplateCaptureCounts = pgTable(
  'org_template_capture_counts',
  {
    orgId: integer('org_id').notNull(),
    templateId: integer('template_id').notNull(),
    captureId: uuid('capture_id').notNull(),
    media: integer('media').notNull(),
  },
  (table) => [primaryKey({ columns: [table.orgId, table.templateId, table.captureId] })],
);

/** An organization's captures per template. */
export const orgTemplateCounts = pgTable(
  'org_template_counts',
  {
    orgId: integer('org_id').notNull(),
    templateId: integer('template_id').notNull(),
    captures: integer('captures').notNull(),
  },
  (table) => [primaryKey({ columns: [table.orgId, table.templateId] })],
);

/** Completed payments per organization, booth (0 = none) and month (UTC), with their refunds. */
export const orgRevenueMonthly = pgTable(
  'org_revenue_monthly',
  {
    orgId: integer('org_id').notNull(),
    deviceId: integer('device_id').notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    payments: integer('payments').notNull(),
    grossPaise: bigint('gross_paise', { mode: 'number' }).notNull(),
    refundedPaise: bigint('refunded_paise', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.orgId, table.deviceId, table.month] })],
);

/** Wall likes (migration 0013): one per visitor and item; media.likes_count follows by trigger. */
export const mediaLikes = pgTable(
  'media_likes',
  {
    mediaId: integer('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.mediaId, table.userId] }),
    index('media_likes_user_idx').on(table.userId),
  ],
);

/** Wall comments (migration 0013). */
export const mediaComments = pgTable(
  'media_comments',
  {
    id: serial('id').primaryKey(),
    mediaId: integer('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    commentText: text('comment_text').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check('media_comments_text_check', sql`char_length(${table.commentText}) between 1 and 500`),
    index('media_comments_media_idx').on(
      table.mediaId,
      descending(table.createdAt),
      descending(table.id),
    ),
    index('media_comments_user_idx').on(table.userId),
  ],
);
export type MediaCommentRow = typeof mediaComments.$inferSelect;

const MODERATION_ACTIONS = ['hide_media', 'show_media', 'delete_comment'] as const;

/**
 * Every moderation action and who took it (migration 0013); plain ids, no foreign keys. A deleted
 * comment's text is kept with its author's id (0024) until the author or the item is erased.
 */
export const moderationLog = pgTable(
  'moderation_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorId: integer('actor_id').notNull(),
    action: text('action', { enum: MODERATION_ACTIONS }).notNull(),
    mediaId: integer('media_id').notNull(),
    commentId: integer('comment_id'),
    commentText: text('comment_text'),
    commentAuthorId: integer('comment_author_id'),
    createdAt: createdAt(),
  },
  (table) => [
    oneOf('moderation_log_action_check', table.action, MODERATION_ACTIONS),
    index('moderation_log_media_idx').on(table.mediaId, descending(table.createdAt)),
    index('moderation_log_comment_author_idx')
      .on(table.commentAuthorId)
      .where(sql`${table.commentText} IS NOT NULL`),
  ],
);

/**
 * Why users.credits_paise changed (migrations 0004, 0007): a capture's charge and its refund
 * (also a payment refunded as credit), a staff grant, and the credit a partially paid
 * transaction holds and gives back.
 */
export const CREDIT_REASONS = CREDIT_LEDGER_REASONS;

export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deltaPaise: integer('delta_paise').notNull(),
    reason: text('reason', { enum: CREDIT_REASONS }).notNull(),
    mediaCaptureId: uuid('media_capture_id'),
    /** The payment transaction that held, released or refunded this credit (migration 0007). */
    paymentTransactionId: integer('payment_transaction_id').references(
      (): AnyPgColumn => paymentTransactions.id,
      { onDelete: 'set null' },
    ),
    /** Staff grants: why (at most 200 characters) and who (migration 0007). */
    note: text('note'),
    grantedBy: integer('granted_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (table) => [
    oneOf('credit_ledger_reason_check', table.reason, CREDIT_REASONS),
    // Debits are negative, everything else positive.
    check(
      'credit_ledger_delta_sign',
      sql`(${table.reason} in ('capture', 'payment_hold') and ${table.deltaPaise} < 0)
      or (${table.reason} in ('refund', 'grant', 'payment_release') and ${table.deltaPaise} > 0)`,
    ),
    check('credit_ledger_note_check', sql`char_length(${table.note}) <= 200`),
    index('credit_ledger_user_idx').on(table.userId, descending(table.createdAt)),
    // My Transactions: the captures a visitor paid with credit (migration 0029).
    index('credit_ledger_user_capture_idx')
      .on(table.userId, descending(table.createdAt), descending(table.id))
      .where(sql`${table.reason} = 'capture'`),
    // A capture is charged at most once and refunded at most once.
    uniqueIndex('credit_ledger_capture_once')
      .on(table.mediaCaptureId, table.reason)
      .where(sql`${table.mediaCaptureId} is not null`),
    // A payment holds credit, gives it back and is refunded as credit at most once each.
    uniqueIndex('credit_ledger_payment_once')
      .on(table.paymentTransactionId, table.reason)
      .where(sql`${table.paymentTransactionId} is not null`),
  ],
);
export type CreditLedgerRow = typeof creditLedger.$inferSelect;

/** One capture session and its entitlement (migration 0005). */
export const captures = pgTable(
  'captures',
  {
    captureId: uuid('capture_id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id').references(() => devices.id, { onDelete: 'set null' }),
    templateId: integer('template_id').references(() => templates.id, { onDelete: 'set null' }),
    chargedPaise: integer('charged_paise').notNull().default(0),
    state: text('state', { enum: CAPTURE_STATES }).notNull().default('requested'),
    createdAt: createdAt(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    deadlineAt: timestamp('deadline_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    failureReason: text('failure_reason'),
    /** What the visitor's screen needs to resume the capture (migration 0029; null before). */
    captureKind: text('capture_kind', { enum: CAPTURE_KINDS }),
    totalCaptures: integer('total_captures'),
    recordSeconds: doublePrecision('record_seconds'),
  },
  (table) => [
    check('captures_charged_paise_check', sql`${table.chargedPaise} >= 0`),
    oneOf('captures_capture_kind_check', table.captureKind, CAPTURE_KINDS),
    check('captures_total_captures_check', sql`${table.totalCaptures} >= 0`),
    check('captures_record_seconds_check', sql`${table.recordSeconds} >= 0`),
    oneOf('captures_state_check', table.state, CAPTURE_STATES),
    // The sweep: open captures by deadline.
    index('captures_open_deadline_idx')
      .on(table.deadlineAt)
      .where(sql`${table.state} in ('requested', 'accepted')`),
    index('captures_device_idx').on(table.deviceId),
    index('captures_user_idx').on(table.userId),
    // The media-retention job: capture records past retention (migration 0021).
    index('captures_created_idx').on(table.createdAt),
  ],
);
export type CaptureRow = typeof captures.$inferSelect;

/** Payment transactions and their audit trail, refunds, and the sandbox provider (migration 0007). */
export const paymentTransactions = pgTable(
  'payment_transactions',
  {
    id: serial('id').primaryKey(),
    /** Null once the account was erased: the record is kept without a person (migration 0019). */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    deviceId: integer('device_id').references(() => devices.id, { onDelete: 'set null' }),
    orgId: integer('org_id').references(() => organizations.id, { onDelete: 'set null' }),
    templateId: integer('template_id').references(() => templates.id, { onDelete: 'set null' }),
    provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
    orderId: text('order_id').notNull().unique(),
    providerOrderId: text('provider_order_id'),
    /** What the provider charges: the price minus `creditPaise`. */
    amountPaise: integer('amount_paise').notNull(),
    /** Credit held for this payment (a 'payment_hold' ledger row); 0 when none. */
    creditPaise: integer('credit_paise').notNull().default(0),
    state: text('state', { enum: PAYMENT_STATES }).notNull().default('PENDING'),
    failureReason: text('failure_reason', { enum: PAYMENT_FAILURE_REASONS }),
    redirectUrl: text('redirect_url'),
    paymentUrl: text('payment_url'),
    checkoutClaimedAt: timestamp('checkout_claimed_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    consumedCaptureId: uuid('consumed_capture_id'),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    oneOf('payment_transactions_provider_check', table.provider, PAYMENT_PROVIDERS),
    check('payment_transactions_order_id_check', sql`${table.orderId} ~ '^[A-Za-z0-9_-]{1,63}$'`),
    check('payment_transactions_amount_paise_check', sql`${table.amountPaise} > 0`),
    check('payment_transactions_credit_paise_check', sql`${table.creditPaise} >= 0`),
    oneOf('payment_transactions_state_check', table.state, PAYMENT_STATES),
    oneOf(
      'payment_transactions_failure_reason_check',
      table.failureReason,
      PAYMENT_FAILURE_REASONS,
    ),
    // My Transactions: a visitor's payments newest first.
    index('payment_transactions_user_idx').on(
      table.userId,
      descending(table.createdAt),
      descending(table.id),
    ),
    // Capture entitlement: the unused paid captures of a visitor at a booth with a template.
    index('payment_transactions_entitlement_idx')
      .on(table.userId, table.deviceId, table.templateId, table.completedAt)
      .where(sql`${table.state} = 'COMPLETED' and ${table.consumedCaptureId} is null`),
    // A capture uses at most one payment.
    uniqueIndex('payment_transactions_capture_once')
      .on(table.consumedCaptureId)
      .where(sql`${table.consumedCaptureId} is not null`),
    index('payment_transactions_reconcile_idx')
      .on(table.nextCheckAt)
      .where(sql`${table.state} = 'PENDING'`),
    // Revenue statistics: an organization's completed payments (migration 0015).
    index('payment_transactions_org_completed_idx')
      .on(table.orgId, table.completedAt)
      .where(sql`${table.completedAt} is not null`),
    // The payment-record purge: records by age (migration 0018).
    index('payment_transactions_created_idx').on(table.createdAt, table.id),
  ],
);
export type PaymentTransactionRow = typeof paymentTransactions.$inferSelect;

export const paymentEvents = pgTable(
  'payment_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    transactionId: integer('transaction_id')
      .notNull()
      .references(() => paymentTransactions.id, { onDelete: 'cascade' }),
    fromState: text('from_state').notNull(),
    toState: text('to_state').notNull(),
    source: text('source').notNull(),
    detail: text('detail'),
    createdAt: createdAt(),
  },
  (table) => [index('payment_events_transaction_idx').on(table.transactionId, table.id)],
);

export const paymentRefunds = pgTable(
  'payment_refunds',
  {
    id: serial('id').primaryKey(),
    transactionId: integer('transaction_id')
      .notNull()
      .references(() => paymentTransactions.id, { onDelete: 'cascade' }),
    destination: text('destination', { enum: REFUND_DESTINATIONS }).notNull(),
    merchantRefundId: text('merchant_refund_id').notNull().unique(),
    providerRefundId: text('provider_refund_id'),
    amountPaise: integer('amount_paise').notNull(),
    state: text('state', { enum: PROVIDER_STATES }).notNull(),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    creditLedgerId: bigint('credit_ledger_id', { mode: 'number' }).references(
      () => creditLedger.id,
      {
        onDelete: 'set null',
      },
    ),
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    oneOf('payment_refunds_destination_check', table.destination, REFUND_DESTINATIONS),
    check('payment_refunds_amount_paise_check', sql`${table.amountPaise} > 0`),
    oneOf('payment_refunds_state_check', table.state, PROVIDER_STATES),
    // At most one refund in progress or done per transaction (a failed one may be retried).
    uniqueIndex('payment_refunds_live_once')
      .on(table.transactionId)
      .where(sql`${table.state} <> 'FAILED'`),
    index('payment_refunds_reconcile_idx')
      .on(table.nextCheckAt)
      .where(sql`${table.state} = 'PENDING'`),
  ],
);
export type PaymentRefundRow = typeof paymentRefunds.$inferSelect;

export const sandboxOrders = pgTable(
  'sandbox_orders',
  {
    orderId: text('order_id').primaryKey(),
    providerOrderId: text('provider_order_id').notNull().unique(),
    amountPaise: integer('amount_paise').notNull(),
    /** Migration 0007; the sandbox does not use it. */
    creditPaise: integer('credit_paise').notNull().default(0),
    state: text('state', { enum: PROVIDER_STATES }).notNull().default('PENDING'),
    /** "Cancel and go back" on the checkout page: FAILED, cancelled by the payer (migration 0029). */
    cancelled: boolean('cancelled').notNull().default(false),
    redirectUrl: text('redirect_url').notNull(),
    description: text('description').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check('sandbox_orders_amount_paise_check', sql`${table.amountPaise} > 0`),
    check('sandbox_orders_credit_paise_check', sql`${table.creditPaise} >= 0`),
    oneOf('sandbox_orders_state_check', table.state, PROVIDER_STATES),
  ],
);
export type SandboxOrderRow = typeof sandboxOrders.$inferSelect;

export const sandboxRefunds = pgTable(
  'sandbox_refunds',
  {
    refundId: text('refund_id').primaryKey(),
    providerRefundId: text('provider_refund_id').notNull().unique(),
    orderId: text('order_id')
      .notNull()
      .references(() => sandboxOrders.orderId, { onDelete: 'cascade' }),
    amountPaise: integer('amount_paise').notNull(),
    state: text('state', { enum: PROVIDER_STATES }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    check('sandbox_refunds_amount_paise_check', sql`${table.amountPaise} > 0`),
    oneOf('sandbox_refunds_state_check', table.state, PROVIDER_STATES),
  ],
);

/** Staged rollouts of a channel's release (0012): the rollout and each booth's state in it. */
export const rollouts = pgTable(
  'rollouts',
  {
    id: serial('id').primaryKey(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => softwareChannels.id, { onDelete: 'cascade' }),
    releaseId: integer('release_id').references(() => softwareReleases.id, {
      onDelete: 'set null',
    }),
    version: text('version').notNull(),
    state: text('state', { enum: ROLLOUT_STATES }).notNull().default('running'),
    maxFailures: integer('max_failures').notNull(),
    stopReason: text('stop_reason'),
    currentWave: integer('current_wave').notNull().default(0),
    waveStartedAt: timestamp('wave_started_at', { withTimezone: true }).notNull().defaultNow(),
    startedBy: integer('started_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    check('rollouts_version_check', sql`${table.version} <> ''`),
    oneOf('rollouts_state_check', table.state, ROLLOUT_STATES),
    check('rollouts_max_failures_check', sql`${table.maxFailures} >= 0`),
    check('rollouts_current_wave_check', sql`${table.currentWave} >= 0`),
    check(
      'rollouts_finished_check',
      sql`(${table.state} in ('running', 'paused')) = (${table.finishedAt} is null)`,
    ),
    uniqueIndex('rollouts_active_once')
      .on(table.channelId)
      .where(sql`${table.state} in ('running', 'paused')`),
    index('rollouts_channel_idx').on(
      table.channelId,
      descending(table.createdAt),
      descending(table.id),
    ),
    index('rollouts_release_idx').on(table.releaseId),
    index('rollouts_started_by_idx').on(table.startedBy),
  ],
);
export type RolloutRow = typeof rollouts.$inferSelect;

export const rolloutDevices = pgTable(
  'rollout_devices',
  {
    rolloutId: integer('rollout_id')
      .notNull()
      .references(() => rollouts.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    wave: integer('wave').notNull(),
    state: text('state', { enum: ROLLOUT_DEVICE_STATES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    claimedBy: text('claimed_by'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.rolloutId, table.deviceId] }),
    check('rollout_devices_wave_check', sql`${table.wave} >= 0`),
    oneOf('rollout_devices_state_check', table.state, ROLLOUT_DEVICE_STATES),
    check('rollout_devices_attempts_check', sql`${table.attempts} >= 0`),
    check(
      'rollout_devices_claimed_check',
      sql`${table.state} <> 'updating' or ${table.claimedAt} is not null`,
    ),
    index('rollout_devices_wave_idx').on(table.rolloutId, table.wave, table.state),
    index('rollout_devices_device_idx').on(table.deviceId),
  ],
);
export type RolloutDeviceRow = typeof rolloutDevices.$inferSelect;

export const passkeys = pgTable(
  'passkeys',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    pool: text('pool', { enum: POOLS }).notNull(),
    credentialId: text('credential_id').notNull().unique(),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports')
      .array()
      .notNull()
      .default(sql`'{}'`),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (table) => [
    oneOf('passkeys_pool_check', table.pool, POOLS),
    check('passkeys_counter_check', sql`${table.counter} >= 0`),
    check('passkeys_name_check', sql`char_length(${table.name}) between 1 and 60`),
    index('passkeys_user_idx').on(table.userId, table.createdAt),
  ],
);
export type PasskeyRow = typeof passkeys.$inferSelect;

export const passkeySpentChallenges = pgTable(
  'passkey_spent_challenges',
  {
    challenge: text('challenge').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('passkey_spent_challenges_expires_idx').on(table.expiresAt)],
);

/** One-time enrollment codes of booth computers (0017): a keyed hash, single use, one per device. */
export const deviceEnrollmentCodes = pgTable('device_enrollment_codes', {
  deviceId: integer('device_id')
    .primaryKey()
    .references(() => devices.id, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull().unique(),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});
export type DeviceEnrollmentCodeRow = typeof deviceEnrollmentCodes.$inferSelect;

/** Failed enrollment attempts per client address (0017), for the rate limit. */
export const deviceEnrollmentFailures = pgTable(
  'device_enrollment_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ip: text('ip').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('device_enrollment_failures_ip_idx').on(table.ip, table.createdAt)],
);

/** Each background job's schedule claim and last run (0018), for the health details. */
export const jobRuns = pgTable('job_runs', {
  name: text('name').primaryKey(),
  nextRunAt: timestamp('next_run_at', { withTimezone: true }),
  lastStartedAt: timestamp('last_started_at', { withTimezone: true }),
  lastFinishedAt: timestamp('last_finished_at', { withTimezone: true }),
  lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
  lastCounts: jsonb('last_counts')
    .$type<Record<string, number>>()
    .notNull()
    .default(sql`'{}'::jsonb`),
  lastError: text('last_error'),
  runs: integer('runs').notNull().default(0),
  failures: integer('failures').notNull().default(0),
});
export type JobRunRow = typeof jobRuns.$inferSelect;

const DELIVERY_REFUNDS = ['payment', 'credit', 'none'] as const;

/** A capture not delivered within the deadline (0018): its refund and the visitor's SMS, once. */
export const deliveryFailures = pgTable(
  'delivery_failures',
  {
    captureId: uuid('capture_id')
      .primaryKey()
      .references(() => captures.captureId, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id').references(() => devices.id, { onDelete: 'set null' }),
    orgId: integer('org_id').references(() => organizations.id, { onDelete: 'set null' }),
    transactionId: integer('transaction_id').references(() => paymentTransactions.id, {
      onDelete: 'set null',
    }),
    refund: text('refund', { enum: DELIVERY_REFUNDS }).notNull(),
    refundPaise: integer('refund_paise').notNull().default(0),
    merchantRefundId: text('merchant_refund_id').unique(),
    refundSentAt: timestamp('refund_sent_at', { withTimezone: true }),
    refundNextAttemptAt: timestamp('refund_next_attempt_at', { withTimezone: true }),
    itemsPromised: integer('items_promised').notNull(),
    itemsDelivered: integer('items_delivered').notNull(),
    smsSentAt: timestamp('sms_sent_at', { withTimezone: true }),
    smsNextAttemptAt: timestamp('sms_next_attempt_at', { withTimezone: true }),
    detectedAt: timestamp('detected_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    oneOf('delivery_failures_refund_check', table.refund, DELIVERY_REFUNDS),
    check('delivery_failures_refund_paise_check', sql`${table.refundPaise} >= 0`),
    check(
      'delivery_failures_items_check',
      sql`${table.itemsDelivered} >= 0 and ${table.itemsDelivered} < ${table.itemsPromised}`,
    ),
    index('delivery_failures_transaction_idx')
      .on(table.transactionId)
      .where(sql`${table.transactionId} is not null`),
    index('delivery_failures_org_idx').on(table.orgId, table.detectedAt),
    index('delivery_failures_refund_due_idx')
      .on(table.refundNextAttemptAt)
      .where(sql`${table.refundSentAt} is null and ${table.refund} = 'payment'`),
    index('delivery_failures_sms_due_idx')
      .on(table.smsNextAttemptAt)
      .where(sql`${table.smsSentAt} is null`),
  ],
);
export type DeliveryFailureRow = typeof deliveryFailures.$inferSelect;

// Migration 0019 (privacy): the store's cleanup queue, data exports, erasure codes and the log of
// privacy actions.
const OBJECT_CLEANUP_REASONS = [
  'erased',
  'deleted_record',
  'unconfirmed_upload',
  'export_expired',
] as const;
const DATA_EXPORT_STATES = ['pending', 'ready', 'failed', 'expired'] as const;
const PRIVACY_ACTIONS = ['export', 'erase'] as const;

/** Objects to delete from the store once `delete_after` has passed, each claimed by one instance. */
export const objectCleanup = pgTable(
  'object_cleanup',
  {
    objectKey: text('object_key').primaryKey(),
    reason: text('reason', { enum: OBJECT_CLEANUP_REASONS }).notNull(),
    deleteAfter: timestamp('delete_after', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (table) => [
    oneOf('object_cleanup_reason_check', table.reason, OBJECT_CLEANUP_REASONS),
    check('object_cleanup_attempts_check', sql`${table.attempts} >= 0`),
    index('object_cleanup_due_idx').on(table.deleteAfter),
  ],
);
export type ObjectCleanupRow = typeof objectCleanup.$inferSelect;
export type ObjectCleanupReason = (typeof OBJECT_CLEANUP_REASONS)[number];

/** "Download my data": one ZIP per request, built in the background, deleted when it expires. */
export const dataExports = pgTable(
  'data_exports',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    state: text('state', { enum: DATA_EXPORT_STATES }).notNull().default('pending'),
    objectKey: text('object_key'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    itemCount: integer('item_count'),
    attempts: integer('attempts').notNull().default(0),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    error: text('error'),
    createdAt: createdAt(),
    readyAt: timestamp('ready_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (table) => [
    oneOf('data_exports_state_check', table.state, DATA_EXPORT_STATES),
    check('data_exports_size_bytes_check', sql`${table.sizeBytes} >= 0`),
    check('data_exports_item_count_check', sql`${table.itemCount} >= 0`),
    check('data_exports_attempts_check', sql`${table.attempts} >= 0`),
    check(
      'data_exports_ready_check',
      sql`(${table.state} = 'ready') = (${table.objectKey} is not null and ${table.expiresAt} is not null)`,
    ),
    uniqueIndex('data_exports_pending_once')
      .on(table.userId)
      .where(sql`${table.state} = 'pending'`),
    index('data_exports_user_idx').on(
      table.userId,
      descending(table.createdAt),
      descending(table.id),
    ),
    index('data_exports_pending_idx')
      .on(table.createdAt)
      .where(sql`${table.state} = 'pending'`),
    index('data_exports_expiry_idx')
      .on(table.expiresAt)
      .where(sql`${table.state} = 'ready'`),
  ],
);
export type DataExportRow = typeof dataExports.$inferSelect;

/** The one-time code confirming "Delete my account" (a keyed hash), one per account. */
export const accountErasureCodes = pgTable(
  'account_erasure_codes',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    sends: integer('sends').notNull().default(1),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    check('account_erasure_codes_code_hash_check', sql`${table.codeHash} ~ '^[0-9a-f]{64}$'`),
    check('account_erasure_codes_attempts_check', sql`${table.attempts} >= 0`),
    check('account_erasure_codes_sends_check', sql`${table.sends} >= 1`),
  ],
);

/** Who exported or erased whose data, and when: plain ids only, no foreign keys. */
export const privacyActions = pgTable(
  'privacy_actions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorId: integer('actor_id').notNull(),
    subjectId: integer('subject_id').notNull(),
    action: text('action', { enum: PRIVACY_ACTIONS }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    oneOf('privacy_actions_action_check', table.action, PRIVACY_ACTIONS),
    index('privacy_actions_created_idx').on(descending(table.createdAt), descending(table.id)),
    index('privacy_actions_subject_idx').on(table.subjectId),
  ],
);
export type PrivacyActionRow = typeof privacyActions.$inferSelect;

/**
 * A visitor's visit at a booth (migration 0029, issue 37): one row per visitor and booth, where
 * they are now. It holds what only the visit knows (the location confirmed, the template picked)
 * and points at the payment and the capture of the current round, whose own rows hold their
 * states (modules/visits).
 */
export const visits = pgTable(
  'visits',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    templateId: integer('template_id').references(() => templates.id, { onDelete: 'set null' }),
    paymentTransactionId: integer('payment_transaction_id').references(
      () => paymentTransactions.id,
      { onDelete: 'set null' },
    ),
    captureId: uuid('capture_id').references(() => captures.captureId, { onDelete: 'set null' }),
    locationConfirmedAt: timestamp('location_confirmed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.deviceId] }),
    index('visits_device_idx').on(table.deviceId),
    index('visits_payment_idx')
      .on(table.paymentTransactionId)
      .where(sql`${table.paymentTransactionId} is not null`),
    index('visits_capture_idx')
      .on(table.captureId)
      .where(sql`${table.captureId} is not null`),
    index('visits_template_idx')
      .on(table.templateId)
      .where(sql`${table.templateId} is not null`),
  ],
);
export type VisitRow = typeof visits.$inferSelect;
