import { z } from 'zod';
import { TimestampSchema } from './common.js';
import { MODERATION_ACTIONS } from './wall-rules.js';

/** One entry of an organization's moderation log: who did what to which item, and when. */
export const ModerationLogEntrySchema = z.object({
  id: z.number().int(),
  action: z.enum(MODERATION_ACTIONS),
  media_id: z.number().int(),
  /** Set for a deleted comment. */
  comment_id: z.number().int().nullable(),
  actor_id: z.number().int(),
  /** Null when the moderator's account no longer exists. */
  actor_name: z.string().nullable(),
  created_at: TimestampSchema,
});
export type ModerationLogEntry = z.infer<typeof ModerationLogEntrySchema>;

/** GET organizations/{id}/moderation-log: newest first, offset paging. */
export const ModerationLogPageSchema = z.object({
  items: z.array(ModerationLogEntrySchema),
  total_count: z.number().int(),
});
export type ModerationLogPage = z.infer<typeof ModerationLogPageSchema>;
