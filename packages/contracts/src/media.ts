import { z } from 'zod';
import {
  cursorListOf,
  DB_INT_MAX,
  hasNoNul,
  idListSchema,
  idTextSchema,
  nulMessage,
  TimestampSchema,
} from './common.js';
import { CaptureKindSchema } from './capture-kind.js';
import { PAYMENT_MESSAGES } from './rules.js';

/** Texts of the capture and media calls (the spec's wording where it has one). */
export const MEDIA_MESSAGES = {
  notFound: 'Media not found.',
  templateNotOffered: 'This template is not available at this photobooth.',
  templateEmpty: 'This template has no photo slots yet. Please pick another one.',
  paymentRequired: PAYMENT_MESSAGES.captureNotCovered,
  captureFailed:
    'Failed to start capture. The photobooth might be busy or had an issue. Please try refreshing the page.',
  mediaIds: 'media_ids must be a comma-separated list of media ids.',
  noChanges: 'No changes to save.',
  oneChange: 'Change one field at a time: is_public, caption, is_downloaded or is_shared.',
  captionTooLong: 'Caption must be at most 500 characters.',
  notUploadedYet: 'The media file has not been uploaded yet.',
  notJpeg: 'The uploaded file is not a JPEG image.',
  notVideo: 'The uploaded video is not an MP4 file with its poster and previews.',
  tooLarge: 'The uploaded file is too large.',
  alreadyUploaded: 'This item is already uploaded; there is nothing left to send.',
} as const;

export const CAPTION_MAX_LENGTH = 500;
/** At most this many ids in one GET media/uploaded or PATCH media/repost_allowed. */
export const MEDIA_IDS_MAX = 50;
/** A composed print is a few MB; anything over this is refused at confirmation. */
export const MEDIA_MAX_BYTES = 50 * 1024 * 1024;
/** The low-resolution preview is at most this wide. */
export const LOWRES_MAX_WIDTH = 1200;

export const MediaTypeSchema = z.enum(['image', 'video']);
export type MediaType = z.infer<typeof MediaTypeSchema>;

/** POST devices/{id}/capture. */
export const CaptureRequestSchema = z.object({
  template_id: idTextSchema('template_id must be a template id.', 'template_id is required.'),
});
export type CaptureRequest = z.infer<typeof CaptureRequestSchema>;

/**
 * The spec's Capture result. For a motion kind `media_ids` lists the video first (then the print
 * when the template also prints), and `total_captures` is 1: one countdown, then the recording of
 * `record_seconds` (0 for a photo).
 */
export const CaptureResultSchema = z.object({
  media_ids: z.array(z.number().int()),
  total_captures: z.number().int(),
  capture_kind: CaptureKindSchema,
  record_seconds: z.number(),
});
export type CaptureResult = z.infer<typeof CaptureResultSchema>;

/** How a capture at a booth would be paid: free booth, an unused payment, or credit. */
export const CaptureEntitlementKindSchema = z.enum(['free', 'payment', 'credit']);
export type CaptureEntitlementKind = z.infer<typeof CaptureEntitlementKindSchema>;

/**
 * GET devices/{id}/entitlement?template_id= : what Capture would do for the caller now, so the
 * capture screen knows before the press. `entitlement` null: nothing covers the price (pay
 * first); `availability` is the booth's recorded status as a visitor's chance to use it.
 */
export const CaptureEntitlementSchema = z.object({
  entitlement: CaptureEntitlementKindSchema.nullable(),
  price_rupees: z.number(),
  credits_rupees: z.number(),
  availability: z.enum(['available', 'busy', 'updating', 'offline']),
});
export type CaptureEntitlement = z.infer<typeof CaptureEntitlementSchema>;

/** The spec's Media. URLs are presigned downloads (1 h), null until the file is uploaded. */
export const MediaSchema = z.object({
  id: z.number().int(),
  media_type: MediaTypeSchema,
  lowres_s3_url: z.string().nullable(),
  s3_url: z.string().nullable(),
  /** A motion item's animated WebP preview (lists); null for an image or until uploaded. */
  preview_s3_url: z.string().nullable(),
  /** A gif item's `.gif` download; null otherwise. */
  gif_s3_url: z.string().nullable(),
  s3_key: z.string(),
  org_name: z.string().nullable(),
  device_name: z.string().nullable(),
  user_name: z.string(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
  orientation: z.enum(['portrait', 'landscape']),
  caption: z.string().nullable(),
  is_public: z.boolean(),
  is_repost_allowed: z.boolean(),
  is_downloaded: z.boolean(),
  is_shared: z.boolean(),
  is_uploaded: z.boolean(),
  likes_count: z.number().int(),
  is_liked_by_caller: z.boolean(),
  /** Hidden from the wall by the venue's moderators (the owner still sees it, marked). */
  hidden_from_wall: z.boolean(),
  /**
   * The item's share page (`/p/{public_id}`, relative) while it is on the wall (public,
   * uploaded, not hidden); null otherwise. Beyond the spec: Share on a phone shares this link.
   */
  share_path: z.string().nullable().optional(),
});
export type Media = z.infer<typeof MediaSchema>;

/** GET media (regular API): one page of the visitor's own media, offset paging. */
export const MediaPageSchema = cursorListOf(MediaSchema);
export type MediaPage = z.infer<typeof MediaPageSchema>;

/** A comma-joined list of ids, as `GET media/uploaded?media_ids=1,2` sends it. */
const MediaIdListSchema = z
  .string({ error: MEDIA_MESSAGES.mediaIds })
  .trim()
  .regex(/^\d{1,10}(,\d{1,10})*$/, MEDIA_MESSAGES.mediaIds)
  .transform((text) => [...new Set(text.split(',').map(Number))])
  .refine(
    (ids) => ids.length <= MEDIA_IDS_MAX && ids.every((id) => id >= 1 && id <= DB_INT_MAX),
    MEDIA_MESSAGES.mediaIds,
  );

export const MediaUploadedQuerySchema = z.object({ media_ids: MediaIdListSchema });
export type MediaUploadedQuery = z.infer<typeof MediaUploadedQuerySchema>;

export const MediaUploadedSchema = z.object({
  media_items: z.array(
    z.object({
      id: z.number().int(),
      is_uploaded: z.boolean(),
      /** The low-resolution preview (1 h link) once it is made; null before. */
      lowres_s3_url: z.string().nullable(),
      orientation: z.enum(['portrait', 'landscape']),
    }),
  ),
});
export type MediaUploaded = z.infer<typeof MediaUploadedSchema>;

/** PATCH media/repost_allowed. */
export const RepostAllowedSchema = z.object({
  media_ids: idListSchema(MEDIA_MESSAGES.mediaIds, MEDIA_IDS_MAX),
  is_repost_allowed: z.boolean({ error: 'is_repost_allowed must be true or false.' }),
});
export type RepostAllowed = z.infer<typeof RepostAllowedSchema>;

export const StatusOkSchema = z.object({ status: z.literal('ok') });
export type StatusOk = z.infer<typeof StatusOkSchema>;

const MEDIA_PATCH_FIELDS = ['is_public', 'caption', 'is_downloaded', 'is_shared'] as const;

/** PATCH media/{id}: exactly one field. A caption is trimmed and an empty one becomes null. */
export const MediaPatchSchema = z
  .object({
    is_public: z.boolean({ error: 'is_public must be true or false.' }).optional(),
    caption: z
      .string({ error: 'Caption must be text or null.' })
      .trim()
      .refine(hasNoNul, nulMessage('Caption'))
      .max(CAPTION_MAX_LENGTH, MEDIA_MESSAGES.captionTooLong)
      .transform((text) => (text === '' ? null : text))
      .nullable()
      .optional(),
    is_downloaded: z.boolean({ error: 'is_downloaded must be true or false.' }).optional(),
    is_shared: z.boolean({ error: 'is_shared must be true or false.' }).optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    const given = MEDIA_PATCH_FIELDS.filter((field) => body[field] !== undefined);
    if (given.length === 0) ctx.addIssue({ code: 'custom', message: MEDIA_MESSAGES.noChanges });
    if (given.length > 1) ctx.addIssue({ code: 'custom', message: MEDIA_MESSAGES.oneChange });
  });
export type MediaPatch = z.infer<typeof MediaPatchSchema>;

export const MediaPatchResultSchema = z.object({
  caption: z.string().nullable(),
  updated_at: TimestampSchema,
});
export type MediaPatchResult = z.infer<typeof MediaPatchResultSchema>;

/** POST /api/device/media/{id}/uploaded (the booth confirms one upload). */
/**
 * POST /api/device/media/{id}/uploaded, optional body (issue 22): when the booth's capture ended
 * (UTC ISO-8601), from its delivery queue. The server keeps it as the item's capture end, within
 * the capture's own times, to measure delivery.
 */
export const MediaUploadConfirmSchema = z
  .object({ captured_at: z.string().max(40).optional() })
  .nullish();
export type MediaUploadConfirm = z.infer<typeof MediaUploadConfirmSchema>;

/**
 * POST /api/device/media/{id}/upload-url (issue 22): a fresh presigned upload link for an item
 * still waiting in the booth's queue, whose first link (from the capture command) has expired.
 */
export const MediaUploadLinkSchema = z.object({
  media_id: z.number().int(),
  upload_url: z.string(),
  content_type: z.string(),
  /** A video item's poster JPEG, animated WebP preview and (gif kind) `.gif` links. */
  poster_upload_url: z.string().optional(),
  preview_upload_url: z.string().optional(),
  gif_upload_url: z.string().nullable().optional(),
  /** UTC ISO-8601 without zone suffix. */
  expires_at: z.string(),
});
export type MediaUploadLink = z.infer<typeof MediaUploadLinkSchema>;

export const MediaUploadConfirmedSchema = z.object({
  id: z.number().int(),
  is_uploaded: z.literal(true),
});
export type MediaUploadConfirmed = z.infer<typeof MediaUploadConfirmedSchema>;
