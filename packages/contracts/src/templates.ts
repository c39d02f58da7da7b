import { z } from 'zod';
import { hasNoNul, idTextSchema, limitSchema, listOf, nulMessage, SearchSchema } from './common.js';
import { CaptureKindSchema } from './capture-kind.js';
import { DeviceLinkSchema } from './devices.js';
import {
  BOOTH_TEMPLATES_MAX_LIMIT,
  BOOTH_TEMPLATES_PAGE_SIZE,
  MOTION_RULES,
  FOREGROUND_CONTENT_TYPE,
  FOREGROUND_MESSAGES,
  TEMPLATE_FILTER_MESSAGE,
  TEMPLATE_FILTER_NAMES,
  TEMPLATE_IMAGE_CONTENT_TYPES,
  TEMPLATE_MESSAGES,
  TEMPLATE_ORIENTATIONS,
  wholePixelsMessage,
} from './rules.js';

/** Its type is `TemplateOrientation` from rules.ts, the same tuple without zod. */
export const TemplateOrientationSchema = z.enum(TEMPLATE_ORIENTATIONS, {
  error: 'Orientation must be portrait or landscape.',
});

/** gif: stills taken, a whole number from 2 to 6. */
export const MotionFramesSchema = z
  .number({ error: TEMPLATE_MESSAGES.motionFrames })
  .int(TEMPLATE_MESSAGES.motionFrames)
  .min(MOTION_RULES.gifFrames.min, TEMPLATE_MESSAGES.motionFrames)
  .max(MOTION_RULES.gifFrames.max, TEMPLATE_MESSAGES.motionFrames);
export type MotionFrames = z.infer<typeof MotionFramesSchema>;

/** video: the clip's seconds, 3 to 10. */
export const MotionSecondsSchema = z
  .number({ error: TEMPLATE_MESSAGES.motionSeconds })
  .min(MOTION_RULES.videoSeconds.min, TEMPLATE_MESSAGES.motionSeconds)
  .max(MOTION_RULES.videoSeconds.max, TEMPLATE_MESSAGES.motionSeconds);
export type MotionSeconds = z.infer<typeof MotionSecondsSchema>;

/** Playback speed of a motion kind, 0.5× to 2×. */
export const MotionSpeedSchema = z
  .number({ error: TEMPLATE_MESSAGES.motionSpeed })
  .min(MOTION_RULES.speed.min, TEMPLATE_MESSAGES.motionSpeed)
  .max(MOTION_RULES.speed.max, TEMPLATE_MESSAGES.motionSpeed);
export type MotionSpeed = z.infer<typeof MotionSpeedSchema>;

/** Template image slot (staff spec section 3); listed by id. */
export const TemplateImageSchema = z.object({
  id: z.number().int(),
  x: z.number(),
  y: z.number(),
  w: z.number(),
  h: z.number(),
  filter: z.string(),
});
export type TemplateImage = z.infer<typeof TemplateImageSchema>;

/** The staff API's Template: presigned download URLs (1 h) or null when nothing is uploaded. */
export const TemplateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  orientation: TemplateOrientationSchema,
  is_cut: z.boolean(),
  is_duplicated: z.boolean(),
  sample_s3_url: z.string().nullable(),
  foreground_s3_url: z.string().nullable(),
  images: z.array(TemplateImageSchema),
  /** What the booth captures; the motion fields below are kept but unused for `photo`. */
  capture_kind: CaptureKindSchema,
  /** gif: stills taken. */
  motion_frames: z.number().int(),
  /** video: clip length in seconds. */
  motion_seconds: z.number(),
  /** Playback speed of a motion kind. */
  motion_speed: z.number(),
  /** Whether a motion capture also prints the template with stills from the clip. */
  motion_prints: z.boolean(),
});
export type Template = z.infer<typeof TemplateSchema>;
/** GET templates: one page of templates and how many match. */
export const TemplateListSchema = listOf(TemplateSchema);
export type TemplateList = z.infer<typeof TemplateListSchema>;

const NAME_MAX = 100;
const nameTooLong = `Template name must be at most ${NAME_MAX} characters.`;
const nameNul = nulMessage('Template name');

/** POST templates. */
export const TemplateCreateSchema = z.object({
  name: z
    .string({ error: TEMPLATE_MESSAGES.nameRequired })
    .trim()
    .min(1, TEMPLATE_MESSAGES.nameRequired)
    .refine(hasNoNul, nameNul)
    .max(NAME_MAX, nameTooLong),
  orientation: TemplateOrientationSchema.default('portrait'),
});
export type TemplateCreate = z.infer<typeof TemplateCreateSchema>;

const TEMPLATE_PATCH_FIELDS = [
  'name',
  'orientation',
  'is_cut',
  'is_duplicated',
  'capture_kind',
  'motion_frames',
  'motion_seconds',
  'motion_speed',
  'motion_prints',
] as const;

/** PATCH templates/{id}: any of the fields, at least one. */
export const TemplatePatchSchema = z
  .object({
    name: z
      .string({ error: TEMPLATE_MESSAGES.nameEmpty })
      .trim()
      .min(1, TEMPLATE_MESSAGES.nameEmpty)
      .refine(hasNoNul, nameNul)
      .max(NAME_MAX, nameTooLong)
      .optional(),
    orientation: TemplateOrientationSchema.optional(),
    is_cut: z.boolean({ error: 'is_cut must be true or false.' }).optional(),
    is_duplicated: z.boolean({ error: 'is_duplicated must be true or false.' }).optional(),
    capture_kind: CaptureKindSchema.optional(),
    motion_frames: MotionFramesSchema.optional(),
    motion_seconds: MotionSecondsSchema.optional(),
    motion_speed: MotionSpeedSchema.optional(),
    motion_prints: z.boolean({ error: TEMPLATE_MESSAGES.motionPrints }).optional(),
  })
  .strict()
  .refine((body) => TEMPLATE_PATCH_FIELDS.some((field) => body[field] !== undefined), {
    message: TEMPLATE_MESSAGES.noChanges,
  });
export type TemplatePatch = z.infer<typeof TemplatePatchSchema>;

/**
 * Slot coordinates are whole canvas pixels (issue 38, item 2: the editor makes nothing else); a
 * generous ceiling keeps nonsense out, and the service keeps every slot inside the canvas.
 */
const COORDINATE_MAX = 100_000;
const position = (field: string) =>
  z
    .number({ error: `${field} must be a number.` })
    .int(wholePixelsMessage(field))
    .min(0, `${field} must be 0 or more.`)
    .max(COORDINATE_MAX, `${field} must be at most ${COORDINATE_MAX}.`);
const size = (field: string) =>
  z
    .number({ error: `${field} must be a number.` })
    .int(wholePixelsMessage(field))
    .positive(`${field} must be more than 0.`)
    .max(COORDINATE_MAX, `${field} must be at most ${COORDINATE_MAX}.`);
/** One of the filters a booth applies, in any case and with spaces around; stored as listed. */
const filter = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
  z.enum(TEMPLATE_FILTER_NAMES, { error: TEMPLATE_FILTER_MESSAGE }),
);

/** POST templates/{id}/images. */
export const TemplateImageCreateSchema = z
  .object({
    x: position('x'),
    y: position('y'),
    w: size('w'),
    h: size('h'),
    filter: filter.default('none'),
  })
  .strict();
export type TemplateImageCreate = z.infer<typeof TemplateImageCreateSchema>;

const IMAGE_PATCH_FIELDS = ['x', 'y', 'w', 'h', 'filter'] as const;

/** PATCH templates/{id}/images/{imageId}: any of the five fields, at least one. */
export const TemplateImagePatchSchema = z
  .object({
    x: position('x').optional(),
    y: position('y').optional(),
    w: size('w').optional(),
    h: size('h').optional(),
    filter: filter.optional(),
  })
  .strict()
  .refine((body) => IMAGE_PATCH_FIELDS.some((field) => body[field] !== undefined), {
    message: TEMPLATE_MESSAGES.noChanges,
  });
export type TemplateImagePatch = z.infer<typeof TemplateImagePatchSchema>;

export const TemplateImageParamsSchema = z.object({
  id: idTextSchema('id must be a positive whole number.'),
  imageId: idTextSchema('imageId must be a positive whole number.'),
});
export type TemplateImageParams = z.infer<typeof TemplateImageParamsSchema>;

/** POST templates/{id}/orgs: the id as a number or the dialog's trimmed text. */
export const TemplateOrgLinkSchema = DeviceLinkSchema;
export type TemplateOrgLink = z.infer<typeof TemplateOrgLinkSchema>;

export const TemplateOrgParamsSchema = z.object({
  id: idTextSchema('id must be a positive whole number.'),
  orgId: idTextSchema('orgId must be a positive whole number.'),
});
export type TemplateOrgParams = z.infer<typeof TemplateOrgParamsSchema>;

export const OrgIdParamSchema = z.object({
  orgId: idTextSchema('orgId must be a positive whole number.'),
});
export type OrgIdParam = z.infer<typeof OrgIdParamSchema>;

/** Organization as listed for a template (staff spec section 3). */
export const TemplateOrganizationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  logo_s3_url: z.string().nullable(),
});
export type TemplateOrganization = z.infer<typeof TemplateOrganizationSchema>;

export function itemsOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item) });
}

/** The body of a sample or foreground presign request; a non-image type gets `message`. */
function presignRequest(message: string) {
  return z.object({
    filename: z.string().max(255).refine(hasNoNul, nulMessage('filename')).optional(),
    contentType: z.preprocess(
      (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
      z.enum(TEMPLATE_IMAGE_CONTENT_TYPES, { error: message }),
    ),
  });
}
export const SamplePresignRequestSchema = presignRequest(TEMPLATE_MESSAGES.sampleType);
/** A foreground is a PNG (issue 38, item 1): any other image gets the foreground rule's words. */
export const ForegroundPresignRequestSchema = presignRequest(
  TEMPLATE_MESSAGES.foregroundType,
).refine((body) => body.contentType === FOREGROUND_CONTENT_TYPE, {
  message: FOREGROUND_MESSAGES.png,
  path: ['contentType'],
});
export type TemplateImagePresignRequest = z.infer<typeof SamplePresignRequestSchema>;
export type SamplePresignRequest = z.infer<typeof SamplePresignRequestSchema>;
export type ForegroundPresignRequest = z.infer<typeof ForegroundPresignRequestSchema>;

export const SamplePresignSchema = z.object({ sample_key: z.string(), upload_url: z.string() });
export type SamplePresign = z.infer<typeof SamplePresignSchema>;
export const ForegroundPresignSchema = z.object({
  foreground_key: z.string(),
  upload_url: z.string(),
});
export type ForegroundPresign = z.infer<typeof ForegroundPresignSchema>;
export const SampleConfirmSchema = z.object({
  sample_key: z
    .string({ error: 'sample_key is required.' })
    .min(1)
    .max(512)
    .refine(hasNoNul, nulMessage('sample_key')),
});
export type SampleConfirm = z.infer<typeof SampleConfirmSchema>;
export const ForegroundConfirmSchema = z.object({
  foreground_key: z
    .string({ error: 'foreground_key is required.' })
    .min(1)
    .max(512)
    .refine(hasNoNul, nulMessage('foreground_key')),
});
export type ForegroundConfirm = z.infer<typeof ForegroundConfirmSchema>;

/** The visitor's Template (visitor spec section 3). */
export const VisitorTemplateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  orientation: TemplateOrientationSchema,
  sample_s3_url: z.string().nullable(),
  is_cut: z.boolean(),
  is_duplicated: z.boolean(),
  /** What the booth captures with it (the list shows motion kinds with a badge). */
  capture_kind: CaptureKindSchema,
  /**
   * A motion kind: whether a print of its frames comes with it (the card says so before the
   * visitor pays). A photo template always prints; its value is then true.
   */
  motion_prints: z.boolean(),
});
export type VisitorTemplate = z.infer<typeof VisitorTemplateSchema>;

/** GET devices/{id}/templates (regular API): cursor paging; empty values count as absent. */
export const VisitorTemplatesQuerySchema = z.object({
  search: SearchSchema,
  limit: limitSchema(BOOTH_TEMPLATES_PAGE_SIZE, BOOTH_TEMPLATES_MAX_LIMIT),
  last_evaluated_key: z
    .string()
    .trim()
    .max(100)
    .refine(hasNoNul, nulMessage('last_evaluated_key'))
    .optional(),
});
export type VisitorTemplatesQuery = z.infer<typeof VisitorTemplatesQuerySchema>;

export const VisitorTemplatePageSchema = z.object({
  items: z.array(VisitorTemplateSchema),
  /** Opaque; pass it back to get the next page; null when there are no more. */
  last_evaluated_key: z.string().nullable(),
});
export type VisitorTemplatePage = z.infer<typeof VisitorTemplatePageSchema>;
