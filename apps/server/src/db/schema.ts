import {
  bigserial,
  boolean,
  date,
  doublePrecision,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

/** Drizzle mirror of migrations/*.sql (the SQL files are the source of truth). */
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  pool: text('pool', { enum: ['regular', 'enterprise'] }).notNull(),
  phone: text('phone').notNull(),
  name: text('name').notNull(),
  email: text('email'),
  dob: date('dob', { mode: 'string' }),
  gender: text('gender'),
  isSuperUser: boolean('is_super_user').notNull().default(false),
  isFlashboothAdmin: boolean('is_flashbooth_admin').notNull().default(false),
  creditsPaise: integer('credits_paise').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type UserRow = typeof users.$inferSelect;

export const organizations = pgTable('organizations', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email'),
  phone: text('phone'),
  address: text('address'),
  logoKey: text('logo_key'),
  createdAt: createdAt(),
});

export const organizationMembers = pgTable(
  'organization_members',
  {
    orgId: integer('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['member', 'admin'] }).notNull(),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.orgId, table.userId] })],
);

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
  (table) => [primaryKey({ columns: [table.pool, table.phone] })],
);

export const otpEvents = pgTable('otp_events', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  pool: text('pool').notNull(),
  phone: text('phone').notNull(),
  ip: text('ip').notNull(),
  kind: text('kind', { enum: ['send', 'fail'] }).notNull(),
  createdAt: createdAt(),
});

export const refreshTokens = pgTable('refresh_tokens', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  pool: text('pool', { enum: ['regular', 'enterprise'] }).notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  familyId: text('family_id').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const smsOutbox = pgTable('sms_outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  phone: text('phone').notNull(),
  text: text('text').notNull(),
  code: text('code'),
  createdAt: createdAt(),
});

export const devices = pgTable('devices', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  orgId: integer('org_id').references(() => organizations.id, { onDelete: 'set null' }),
  thingName: text('thing_name').notNull().unique(),
  secretHash: text('secret_hash').notNull(),
  status: text('status').notNull().default('offline'),
  softwareChannelId: integer('software_channel_id'),
  softwareVersion: text('software_version'),
  pricePaise: integer('price_paise').notNull().default(0),
  printsLeft: integer('prints_left').notNull().default(700),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  pingedAt: timestamp('pinged_at', { withTimezone: true }),
});
export type DeviceRow = typeof devices.$inferSelect;

export const deviceErrors = pgTable('device_errors', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  deviceId: integer('device_id')
    .notNull()
    .references(() => devices.id, { onDelete: 'cascade' }),
  errorMessage: text('error_message').notNull(),
  createdAt: createdAt(),
});

export const templates = pgTable('templates', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  orientation: text('orientation', { enum: ['portrait', 'landscape'] })
    .notNull()
    .default('portrait'),
  isCut: boolean('is_cut').notNull().default(false),
  isDuplicated: boolean('is_duplicated').notNull().default(false),
  sampleKey: text('sample_key'),
  foregroundKey: text('foreground_key'),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type TemplateRow = typeof templates.$inferSelect;

export const templateImages = pgTable('template_images', {
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
});
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
  (table) => [primaryKey({ columns: [table.templateId, table.orgId] })],
);

export const media = pgTable('media', {
  id: serial('id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  deviceId: integer('device_id').references(() => devices.id, { onDelete: 'set null' }),
  orgId: integer('org_id').references(() => organizations.id, { onDelete: 'set null' }),
  templateId: integer('template_id').references(() => templates.id, { onDelete: 'set null' }),
  captureId: uuid('capture_id').notNull(),
  mediaType: text('media_type', { enum: ['image', 'video'] })
    .notNull()
    .default('image'),
  s3Key: text('s3_key').notNull().unique(),
  lowresKey: text('lowres_key'),
  orientation: text('orientation', { enum: ['portrait', 'landscape'] })
    .notNull()
    .default('portrait'),
  caption: text('caption'),
  isPublic: boolean('is_public').notNull().default(false),
  isRepostAllowed: boolean('is_repost_allowed').notNull().default(true),
  isDownloaded: boolean('is_downloaded').notNull().default(false),
  isShared: boolean('is_shared').notNull().default(false),
  isUploaded: boolean('is_uploaded').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type MediaRow = typeof media.$inferSelect;

export const creditLedger = pgTable('credit_ledger', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  deltaPaise: integer('delta_paise').notNull(),
  reason: text('reason', { enum: ['capture', 'refund', 'grant'] }).notNull(),
  mediaCaptureId: uuid('media_capture_id'),
  createdAt: createdAt(),
});
