import { z } from 'zod';

/** A period's first day, YYYY-MM-DD (UTC). */
const DaySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const CountSchema = z.number().int().nonnegative();
const RateSchema = z.number().min(0).max(1);
/** Rupees with two decimals, as every amount in the API. */
const RupeesSchema = z.number();

export const WeekCountSchema = z.object({ week_start: DaySchema, count: CountSchema });
export type WeekCount = z.infer<typeof WeekCountSchema>;
export const MonthCountSchema = z.object({ month_start: DaySchema, count: CountSchema });
export type MonthCount = z.infer<typeof MonthCountSchema>;

export const MostUsedTemplateSchema = z.object({ name: z.string(), usage_count: CountSchema });
export type MostUsedTemplate = z.infer<typeof MostUsedTemplateSchema>;

/**
 * Revenue of one booth in one month (beyond the spec; admins and privileged staff only):
 * payments completed that month at the booth for the organization, less their refunds.
 */
export const RevenueRowSchema = z.object({
  device_id: z.number().int().positive().nullable(),
  device_name: z.string(),
  month_start: DaySchema,
  payments_count: CountSchema,
  gross_rupees: RupeesSchema,
  refunded_rupees: RupeesSchema,
  revenue_rupees: RupeesSchema,
});
export type RevenueRow = z.infer<typeof RevenueRowSchema>;

export const RevenueTotalSchema = z.object({
  payments_count: CountSchema,
  gross_rupees: RupeesSchema,
  refunded_rupees: RupeesSchema,
  revenue_rupees: RupeesSchema,
});
export type RevenueTotal = z.infer<typeof RevenueTotalSchema>;

export const RevenueSchema = z.object({
  total: RevenueTotalSchema,
  /** One row per booth, highest revenue first. */
  per_booth: z.array(
    RevenueTotalSchema.extend({
      device_id: z.number().int().positive().nullable(),
      device_name: z.string(),
    }),
  ),
  /** One row per month with payments, oldest first. */
  per_month: z.array(RevenueTotalSchema.extend({ month_start: DaySchema })),
  /** One row per booth and month, oldest month first. */
  per_booth_month: z.array(RevenueRowSchema),
});
export type Revenue = z.infer<typeof RevenueSchema>;

/**
 * GET organizations/{id}/stats (staff spec section 3). `share_rate`, `download_rate`,
 * `repeated_users` and `revenue` are present only for the organization's admins and privileged
 * staff; members get them omitted. `most_used_template` is omitted when no capture names a
 * template. Definitions: docs/reference/server.md, "Organization statistics".
 */
export const OrganizationStatsSchema = z.object({
  total_captures: CountSchema,
  total_media: CountSchema,
  /** Of `total_media`: the photos (prints) and the videos (motion captures). Beyond the spec. */
  total_photos: CountSchema,
  total_videos: CountSchema,
  total_shared_media: CountSchema,
  total_downloaded_media: CountSchema,
  total_users_who_captured: CountSchema,
  /**
   * Items a booth did not deliver within an hour of their capture (issue 22): marked late by the
   * late sweep, whether they arrived afterwards or are still waiting. Beyond the spec.
   */
  late_deliveries: CountSchema,
  /**
   * Captures that broke the delivery promise (not every item delivered within
   * DELIVERY_DEADLINE_MINUTES) and were refunded by the server, payment or credit. Beyond the spec.
   */
  delivery_failures: CountSchema,
  share_rate: RateSchema.optional(),
  download_rate: RateSchema.optional(),
  repeated_users: CountSchema.optional(),
  most_used_template: MostUsedTemplateSchema.optional(),
  media_per_week: z.array(WeekCountSchema),
  media_per_month: z.array(MonthCountSchema),
  revenue: RevenueSchema.optional(),
});
export type OrganizationStats = z.infer<typeof OrganizationStatsSchema>;
