import { z } from 'zod';
import { idTextSchema, TimestampSchema } from './common.js';
import { DATA_EXPORT_STATES, ERASURE_CODE_LENGTH, PRIVACY_MESSAGES } from './privacy-rules.js';

/** A person's data export ("Download my data"), as the profile and the console show it. */
export const DataExportSchema = z.object({
  id: z.number().int(),
  state: z.enum(DATA_EXPORT_STATES),
  requested_at: TimestampSchema,
  /** Whether staff asked for it on the person's behalf. */
  requested_by_staff: z.boolean(),
  ready_at: TimestampSchema.nullable(),
  /** When the ZIP is deleted and the link stops working (ready exports). */
  expires_at: TimestampSchema.nullable(),
  size_bytes: z.number().int().nullable(),
  /** Photos and videos in the ZIP. */
  item_count: z.number().int().nullable(),
  /** A signed link to the ZIP while it is ready (it works until `expires_at`). */
  download_url: z.string().nullable(),
});
export type DataExport = z.infer<typeof DataExportSchema>;

/** GET …/data-export: the latest export, or null when none was asked for. */
export const DataExportStatusSchema = z.object({ current: DataExportSchema.nullable() });
export type DataExportStatus = z.infer<typeof DataExportStatusSchema>;

/** POST users/self/erasure-code: where the confirmation code went and until when it works. */
export const ErasureCodeSentSchema = z.object({
  sent_to: z.string(),
  expires_at: TimestampSchema,
});
export type ErasureCodeSent = z.infer<typeof ErasureCodeSentSchema>;

/** POST users/self/erase: the code from the SMS. */
export const EraseAccountBodySchema = z.object({
  code: z
    .string()
    .trim()
    .regex(new RegExp(`^\\d{${ERASURE_CODE_LENGTH}}$`), PRIVACY_MESSAGES.deleteCodeInvalid),
});
export type EraseAccountBody = z.infer<typeof EraseAccountBodySchema>;

export const PersonIdParamSchema = z.object({
  id: idTextSchema('id must be a positive whole number.'),
});
export type PersonIdParam = z.infer<typeof PersonIdParamSchema>;

/** What a staff erasure removed: counts only (the person is gone). */
export const ErasureResultSchema = z.object({
  user_id: z.number().int(),
  counts: z.record(z.string(), z.number().int()),
});
export type ErasureResult = z.infer<typeof ErasureResultSchema>;

/** One privacy action: who (staff or the person) exported or erased whose data, when. Ids only. */
export const PrivacyActionSchema = z.object({
  id: z.number().int(),
  actor_id: z.number().int(),
  subject_id: z.number().int(),
  action: z.enum(['export', 'erase']),
  created_at: TimestampSchema,
});
export type PrivacyAction = z.infer<typeof PrivacyActionSchema>;

export const PrivacyActionListSchema = z.object({
  items: z.array(PrivacyActionSchema),
  total_count: z.number().int(),
});
export type PrivacyActionList = z.infer<typeof PrivacyActionListSchema>;
