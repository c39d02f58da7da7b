import { CREDIT_LEDGER_REASONS } from '@flashbooth/contracts';
import {
  type AnyPgColumn,
  bigint,
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
  softwareChannelId: integer('software_channel_id').references(() => softwareChannels.id, {
    onDelete: 'set null',
  }),
  softwareVersion: text('software_version'),
  pricePaise: integer('price_paise').notNull().default(0),
  printsLeft: integer('prints_left').notNull().default(700),
  /** Grows with every settings change published to the booth (migration 0005). */
  settingsRevision: integer('settings_revision').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  pingedAt: timestamp('pinged_at', { withTimezone: true }),
});
export type DeviceRow = typeof devices.$inferSelect;

/** Booth software (0006): a release is a version with one uploaded file, checksummed on confirm. */
export const softwareReleases = pgTable('software_releases', {
  id: serial('id').primaryKey(),
  version: text('version').notNull(),
  releaseNotes: text('release_notes'),
  s3Key: text('s3_key'),
  sha256: text('sha256'),
  sizeBytes: bigint('size_bytes', { mode: 'number' }),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type SoftwareReleaseRow = typeof softwareReleases.$inferSelect;

export const softwareChannels = pgTable('software_channels', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description'),
  releaseId: integer('release_id').references(() => softwareReleases.id, {
    onDelete: 'restrict',
  }),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type SoftwareChannelRow = typeof softwareChannels.$inferSelect;

export const deviceErrors = pgTable('device_errors', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  deviceId: integer('device_id')
    .notNull()
    .references(() => devices.id, { onDelete: 'cascade' }),
  errorMessage: text('error_message').notNull(),
  /** The booth's report id (unique per device); null for entries the server writes. */
  reportId: uuid('report_id'),
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
  // Migration 0008: the background preview's attempts, lease and permanent failure.
  previewAttempts: integer('preview_attempts').notNull().default(0),
  previewClaimedUntil: timestamp('preview_claimed_until', { withTimezone: true }),
  previewError: text('preview_error'),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type MediaRow = typeof media.$inferSelect;

/**
 * Why users.credits_paise changed (migrations 0004, 0007): a capture's charge and its refund
 * (also a payment refunded as credit), a staff grant, and the credit a partially paid
 * transaction holds and gives back.
 */
export const CREDIT_REASONS = CREDIT_LEDGER_REASONS;

export const creditLedger = pgTable('credit_ledger', {
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
});
export type CreditLedgerRow = typeof creditLedger.$inferSelect;

/** One capture session and its entitlement (migration 0005). */
export const captures = pgTable('captures', {
  captureId: uuid('capture_id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  deviceId: integer('device_id').references(() => devices.id, { onDelete: 'set null' }),
  templateId: integer('template_id').references(() => templates.id, { onDelete: 'set null' }),
  chargedPaise: integer('charged_paise').notNull().default(0),
  state: text('state', { enum: ['requested', 'accepted', 'delivered', 'failed'] })
    .notNull()
    .default('requested'),
  createdAt: createdAt(),
  acceptedAt: timestamp('accepted_at', { withTimezone: true }),
  deadlineAt: timestamp('deadline_at', { withTimezone: true }).notNull(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  failureReason: text('failure_reason'),
});
export type CaptureRow = typeof captures.$inferSelect;

/** Payment transactions and their audit trail, refunds, and the sandbox provider (migration 0007). */
export const paymentTransactions = pgTable('payment_transactions', {
  id: serial('id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  deviceId: integer('device_id').references(() => devices.id, { onDelete: 'set null' }),
  orgId: integer('org_id').references(() => organizations.id, { onDelete: 'set null' }),
  templateId: integer('template_id').references(() => templates.id, { onDelete: 'set null' }),
  provider: text('provider', { enum: ['sandbox', 'phonepe'] }).notNull(),
  orderId: text('order_id').notNull().unique(),
  providerOrderId: text('provider_order_id'),
  /** What the provider charges: the price minus `creditPaise`. */
  amountPaise: integer('amount_paise').notNull(),
  /** Credit held for this payment (a 'payment_hold' ledger row); 0 when none. */
  creditPaise: integer('credit_paise').notNull().default(0),
  state: text('state', {
    enum: ['PENDING', 'COMPLETED', 'FAILED', 'REFUND_PENDING', 'REFUNDED'],
  })
    .notNull()
    .default('PENDING'),
  failureReason: text('failure_reason', { enum: ['declined', 'expired', 'amount_mismatch'] }),
  redirectUrl: text('redirect_url'),
  paymentUrl: text('payment_url'),
  checkoutClaimedAt: timestamp('checkout_claimed_at', { withTimezone: true }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  nextCheckAt: timestamp('next_check_at', { withTimezone: true }).notNull(),
  completedAt: timestamp('completed_at', { withTimezone: true }),
  consumedCaptureId: uuid('consumed_capture_id'),
  consumedAt: timestamp('consumed_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type PaymentTransactionRow = typeof paymentTransactions.$inferSelect;

export const paymentEvents = pgTable('payment_events', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  transactionId: integer('transaction_id')
    .notNull()
    .references(() => paymentTransactions.id, { onDelete: 'cascade' }),
  fromState: text('from_state').notNull(),
  toState: text('to_state').notNull(),
  source: text('source').notNull(),
  detail: text('detail'),
  createdAt: createdAt(),
});

export const paymentRefunds = pgTable('payment_refunds', {
  id: serial('id').primaryKey(),
  transactionId: integer('transaction_id')
    .notNull()
    .references(() => paymentTransactions.id, { onDelete: 'cascade' }),
  destination: text('destination', { enum: ['source', 'credit'] }).notNull(),
  merchantRefundId: text('merchant_refund_id').notNull().unique(),
  providerRefundId: text('provider_refund_id'),
  amountPaise: integer('amount_paise').notNull(),
  state: text('state', { enum: ['PENDING', 'COMPLETED', 'FAILED'] }).notNull(),
  requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
  creditLedgerId: bigint('credit_ledger_id', { mode: 'number' }).references(() => creditLedger.id, {
    onDelete: 'set null',
  }),
  nextCheckAt: timestamp('next_check_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type PaymentRefundRow = typeof paymentRefunds.$inferSelect;

export const sandboxOrders = pgTable('sandbox_orders', {
  orderId: text('order_id').primaryKey(),
  providerOrderId: text('provider_order_id').notNull().unique(),
  amountPaise: integer('amount_paise').notNull(),
  state: text('state', { enum: ['PENDING', 'COMPLETED', 'FAILED'] })
    .notNull()
    .default('PENDING'),
  redirectUrl: text('redirect_url').notNull(),
  description: text('description').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type SandboxOrderRow = typeof sandboxOrders.$inferSelect;

export const sandboxRefunds = pgTable('sandbox_refunds', {
  refundId: text('refund_id').primaryKey(),
  providerRefundId: text('provider_refund_id').notNull().unique(),
  orderId: text('order_id')
    .notNull()
    .references(() => sandboxOrders.orderId, { onDelete: 'cascade' }),
  amountPaise: integer('amount_paise').notNull(),
  state: text('state', { enum: ['PENDING', 'COMPLETED', 'FAILED'] }).notNull(),
  createdAt: createdAt(),
});
