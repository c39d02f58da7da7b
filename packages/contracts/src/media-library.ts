import { z } from 'zod';
import {
  cursorListOf,
  CursorSchema,
  idTextSchema,
  limitSchema,
  OffsetSchema,
  SearchSchema,
  TimestampSchema,
} from './common.js';
import { MediaTypeSchema } from './media.js';
import { STAFF_MEDIA_PAGE_SIZE } from './media-library-rules.js';

/**
 * The staff spec's media item (admin and org views, section 3), plus the ids of its organization
 * and booth (the console decides who may moderate it) and whether the venue hid it from the wall.
 * Only uploaded items are listed, so both URLs are there (presigned, one hour).
 */
export const StaffMediaItemSchema = z.object({
  id: z.number().int(),
  media_type: MediaTypeSchema,
  orientation: z.enum(['portrait', 'landscape']),
  /** An image's preview, or a motion item's poster JPEG. */
  lowres_s3_url: z.string(),
  /** The print, or a motion item's MP4. */
  s3_url: z.string(),
  /** A motion item's animated WebP preview; null for an image. */
  preview_s3_url: z.string().nullable(),
  /** A gif item's `.gif` download; null otherwise. */
  gif_s3_url: z.string().nullable(),
  s3_key: z.string(),
  user_name: z.string(),
  org_id: z.number().int().nullable(),
  org_name: z.string().nullable(),
  device_id: z.number().int().nullable(),
  device_name: z.string().nullable(),
  created_at: TimestampSchema,
  caption: z.string().nullable(),
  is_public: z.boolean(),
  is_repost_allowed: z.boolean(),
  hidden_from_wall: z.boolean(),
});
export type StaffMediaItem = z.infer<typeof StaffMediaItemSchema>;

export const StaffMediaPageSchema = cursorListOf(StaffMediaItemSchema);
export type StaffMediaPage = z.infer<typeof StaffMediaPageSchema>;

/** GET organizations/{id}/media/repost_allowed: search, limit (10), offset. */
export const OrganizationMediaQuerySchema = z.object({
  search: SearchSchema,
  limit: limitSchema(STAFF_MEDIA_PAGE_SIZE),
  offset: OffsetSchema,
  cursor: CursorSchema,
});
export type OrganizationMediaQuery = z.infer<typeof OrganizationMediaQuerySchema>;

/** GET media/all: search, limit (10), offset and the optional org_id and device_id (min 1). */
export const AllMediaQuerySchema = OrganizationMediaQuerySchema.extend({
  org_id: idTextSchema('org_id must be a positive whole number.').optional(),
  device_id: idTextSchema('device_id must be a positive whole number.').optional(),
});
export type AllMediaQuery = z.infer<typeof AllMediaQuerySchema>;
