import { z } from 'zod';
import {
  cursorListOf,
  CursorSchema,
  hasNoNul,
  limitSchema,
  listOf,
  nulMessage,
  OffsetSchema,
  SearchSchema,
  TimestampSchema,
} from './common.js';
import { MediaSchema } from './media.js';
import {
  COMMENT_MAX_LENGTH,
  COMMENTS_PAGE_SIZE,
  WALL_MESSAGES,
  WALL_PAGE_SIZE,
} from './wall-rules.js';

/**
 * GET media/public (regular API): search, limit (10), offset. Answers without a session too;
 * items are the spec's Media (`likes_count`, and `is_liked_by_caller` for the caller, false
 * without a session).
 */
export const WallQuerySchema = z.object({
  search: SearchSchema,
  limit: limitSchema(WALL_PAGE_SIZE),
  offset: OffsetSchema,
  cursor: CursorSchema,
});
export type WallQuery = z.infer<typeof WallQuerySchema>;

export const WallPageSchema = cursorListOf(MediaSchema);
export type WallPage = z.infer<typeof WallPageSchema>;

/** POST and DELETE media/{id}/likes: the item's count after the change and the caller's like. */
export const LikeStateSchema = z.object({
  id: z.number().int(),
  likes_count: z.number().int(),
  is_liked_by_caller: z.boolean(),
});
export type LikeState = z.infer<typeof LikeStateSchema>;

/** The spec's Comment. `user_name` is null when the author has none (the screen shows "User"). */
export const CommentSchema = z.object({
  id: z.number().int(),
  user_name: z.string().nullable(),
  comment_text: z.string(),
  created_at: TimestampSchema,
  can_edit: z.boolean(),
});
export type Comment = z.infer<typeof CommentSchema>;

/** GET media/{id}/comments: newest first, limit (5), offset. */
export const CommentsQuerySchema = z.object({
  limit: limitSchema(COMMENTS_PAGE_SIZE),
  offset: OffsetSchema,
});
export type CommentsQuery = z.infer<typeof CommentsQuerySchema>;

export const CommentPageSchema = listOf(CommentSchema);
export type CommentPage = z.infer<typeof CommentPageSchema>;

const CommentTextSchema = z
  .string({ error: WALL_MESSAGES.commentEmpty })
  .trim()
  .min(1, WALL_MESSAGES.commentEmpty)
  .max(COMMENT_MAX_LENGTH, WALL_MESSAGES.commentTooLong)
  .refine(hasNoNul, nulMessage('Comment'));

/** POST media/{id}/comments and PATCH media/comments/{id}: the trimmed text. */
export const CommentBodySchema = z.object({ comment_text: CommentTextSchema }).strict();
export type CommentBody = z.infer<typeof CommentBodySchema>;

/** POST and DELETE media/{id}/hide (enterprise API): where the item stands on the wall. */
export const WallHideStateSchema = z.object({
  id: z.number().int(),
  hidden_from_wall: z.boolean(),
  hidden_from_wall_at: TimestampSchema.nullable(),
  /** The staff user who hid it (null when shown, or when that account is gone). */
  hidden_from_wall_by: z.number().int().nullable(),
});
export type WallHideState = z.infer<typeof WallHideStateSchema>;

/**
 * GET walls/{orgId} (regular API, no session): the kiosk wall of one organization, its newest
 * items on the wall (at most KIOSK_WALL_ITEMS), with its name and logo and its booths for the QR
 * code. Images are the share page's (`/p/{public_id}/image.jpg`), which check the item is still
 * public on every request.
 */
export const KioskWallItemSchema = z.object({
  id: z.number().int(),
  media_type: z.enum(['image', 'video']),
  /** The picture 1200 px wide (a motion item's poster); null when it has none. */
  image_url: z.string().nullable(),
  /** A motion item's video; null for a photo. */
  video_url: z.string().nullable(),
  /** A motion item's animated WebP preview; null for a photo. */
  preview_s3_url: z.string().nullable(),
  /** A gif item's `.gif`; null otherwise. */
  gif_s3_url: z.string().nullable(),
  /** The share page of the item. */
  share_path: z.string(),
  orientation: z.enum(['portrait', 'landscape']),
  /** The owner's first name only: the wall is on a screen in a public place. */
  first_name: z.string(),
  caption: z.string().nullable(),
  likes_count: z.number().int(),
  /** The booth that made it, while it still belongs to this organization. */
  device_id: z.number().int().nullable(),
  device_name: z.string().nullable(),
  created_at: TimestampSchema,
});
export type KioskWallItem = z.infer<typeof KioskWallItemSchema>;

export const KioskWallSchema = z.object({
  organization: z.object({
    id: z.number().int(),
    name: z.string(),
    logo_url: z.string().nullable(),
  }),
  /** The organization's booths, by id: the QR code leads to one of them. */
  booths: z.array(z.object({ id: z.number().int(), name: z.string() })),
  items: z.array(KioskWallItemSchema),
});
export type KioskWall = z.infer<typeof KioskWallSchema>;

/** `event: wall` of GET walls/{orgId}/events: an item came onto or left the wall. */
export const KioskWallEventSchema = z.object({
  media_id: z.number().int(),
  on_wall: z.boolean(),
});
export type KioskWallEvent = z.infer<typeof KioskWallEventSchema>;
