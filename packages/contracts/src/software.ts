import { z } from 'zod';
import {
  DB_INT_MAX,
  hasNoNul,
  limitSchema,
  listOf,
  nulMessage,
  OffsetSchema,
  SearchSchema,
  TimestampSchema,
} from './common.js';
import {
  RELEASE_CONTENT_TYPES,
  RELEASE_DEFAULT_CONTENT_TYPE,
  RELEASE_NOTES_MAX,
  RELEASE_VERSION_MAX,
  RELEASE_VERSION_PATTERN,
  SOFTWARE_DESCRIPTION_MAX,
  SOFTWARE_MESSAGES,
  SOFTWARE_NAME_MAX,
  SOFTWARE_PAGE_SIZE,
  SOFTWARE_PICKER_LIMIT,
} from './software-rules.js';

export * from './software-rules.js';

/** GET software/channels and software/releases: 9 a page by default, 200 for the pickers. */
export const SoftwarePageQuerySchema = z.object({
  search: SearchSchema,
  limit: limitSchema(SOFTWARE_PAGE_SIZE, SOFTWARE_PICKER_LIMIT),
  offset: OffsetSchema,
});
export type SoftwarePageQuery = z.infer<typeof SoftwarePageQuerySchema>;

/** Optional free text: trimmed, and empty means none (null). */
function optionalText(field: string, max: number, tooLong: string) {
  return z
    .string({ error: 'Must be text.' })
    .trim()
    .refine(hasNoNul, nulMessage(field))
    .max(max, tooLong)
    .nullable()
    .optional()
    .transform((value) => (value === '' ? null : value));
}

/** A release id, null to unlink; the picker's value may arrive as text ('' = none). */
const releaseId = z.preprocess(
  (value) => {
    if (typeof value !== 'string') return value;
    const trimmed = value.trim();
    return trimmed === '' ? null : /^\d+$/.test(trimmed) ? Number(trimmed) : value;
  },
  z
    .number({ error: SOFTWARE_MESSAGES.releaseIdInvalid })
    .int(SOFTWARE_MESSAGES.releaseIdInvalid)
    .positive(SOFTWARE_MESSAGES.releaseIdInvalid)
    .max(DB_INT_MAX, SOFTWARE_MESSAGES.releaseIdInvalid)
    .nullable()
    .optional(),
);

const channelName = z
  .string({ error: SOFTWARE_MESSAGES.channelNameRequired })
  .trim()
  .min(1, SOFTWARE_MESSAGES.channelNameRequired)
  .refine(hasNoNul, nulMessage('Channel name'))
  .max(SOFTWARE_NAME_MAX, SOFTWARE_MESSAGES.channelNameTooLong);

const version = z
  .string({ error: SOFTWARE_MESSAGES.versionRequired })
  .trim()
  .min(1, SOFTWARE_MESSAGES.versionRequired)
  .max(RELEASE_VERSION_MAX, SOFTWARE_MESSAGES.versionTooLong)
  .regex(RELEASE_VERSION_PATTERN, SOFTWARE_MESSAGES.versionCharacters);

/** Software channel (staff spec section 3). */
export const SoftwareChannelSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  release_id: z.number().int().nullable(),
  release_version: z.string().nullable(),
  created_at: TimestampSchema,
  /** Null once the creating account is deleted. */
  created_by: z.number().int().nullable(),
  created_by_name: z.string().nullable(),
});
export type SoftwareChannel = z.infer<typeof SoftwareChannelSchema>;
/** GET software/channels: one page of channels and how many match. */
export const SoftwareChannelListSchema = listOf(SoftwareChannelSchema);
export type SoftwareChannelList = z.infer<typeof SoftwareChannelListSchema>;

/** POST software/channels. */
export const SoftwareChannelCreateSchema = z
  .object({
    name: channelName,
    description: optionalText(
      'Description',
      SOFTWARE_DESCRIPTION_MAX,
      SOFTWARE_MESSAGES.descriptionTooLong,
    ),
    release_id: releaseId,
  })
  .strict();
export type SoftwareChannelCreate = z.infer<typeof SoftwareChannelCreateSchema>;

const CHANNEL_PATCH_FIELDS = ['name', 'description', 'release_id'] as const;

/** PATCH software/channels/{id}: the edit dialog's {name, description} or the link's {release_id}. */
export const SoftwareChannelPatchSchema = z
  .object({
    name: channelName.optional(),
    description: optionalText(
      'Description',
      SOFTWARE_DESCRIPTION_MAX,
      SOFTWARE_MESSAGES.descriptionTooLong,
    ),
    release_id: releaseId,
  })
  .strict()
  .refine((body) => CHANNEL_PATCH_FIELDS.some((field) => body[field] !== undefined), {
    message: SOFTWARE_MESSAGES.noChanges,
  });
export type SoftwareChannelPatch = z.infer<typeof SoftwareChannelPatchSchema>;

/** Software release (staff spec section 3), plus the file's checksum and size once uploaded. */
export const SoftwareReleaseSchema = z.object({
  id: z.number().int(),
  version: z.string(),
  release_notes: z.string().nullable(),
  is_uploaded: z.boolean(),
  s3_key: z.string().nullable(),
  /** A time-limited download link (1 hour), null until a file is uploaded. */
  s3_url: z.string().nullable(),
  /** When s3_url stops working (UTC, no zone suffix). */
  s3_url_expiry: TimestampSchema.nullable(),
  /** Lower-case hex SHA-256 of the file, computed by the server when the upload is confirmed. */
  sha256: z.string().nullable(),
  size_bytes: z.number().int().nullable(),
  created_at: TimestampSchema,
  created_by: z.number().int().nullable(),
  created_by_name: z.string().nullable(),
});
export type SoftwareRelease = z.infer<typeof SoftwareReleaseSchema>;
/** GET software/releases: one page of releases and how many match. */
export const SoftwareReleaseListSchema = listOf(SoftwareReleaseSchema);
export type SoftwareReleaseList = z.infer<typeof SoftwareReleaseListSchema>;

/** POST software/releases. */
export const SoftwareReleaseCreateSchema = z
  .object({
    version,
    release_notes: optionalText(
      'Release notes',
      RELEASE_NOTES_MAX,
      SOFTWARE_MESSAGES.releaseNotesTooLong,
    ),
  })
  .strict();
export type SoftwareReleaseCreate = z.infer<typeof SoftwareReleaseCreateSchema>;

/** PATCH software/releases/{id}: any of version, release_notes. */
export const SoftwareReleasePatchSchema = z
  .object({
    version: version.optional(),
    release_notes: optionalText(
      'Release notes',
      RELEASE_NOTES_MAX,
      SOFTWARE_MESSAGES.releaseNotesTooLong,
    ),
  })
  .strict()
  .refine((body) => body.version !== undefined || body.release_notes !== undefined, {
    message: SOFTWARE_MESSAGES.noChanges,
  });
export type SoftwareReleasePatch = z.infer<typeof SoftwareReleasePatchSchema>;

/** POST software/releases/{id}/file/presigned_upload: the type defaults to a raw binary. */
export const ReleasePresignRequestSchema = z.object({
  filename: z.string().max(255).refine(hasNoNul, nulMessage('filename')).optional(),
  contentType: z.preprocess(
    (value) => {
      if (typeof value !== 'string') return value;
      const type = value.trim().toLowerCase();
      return type === '' ? undefined : type;
    },
    z
      .enum(RELEASE_CONTENT_TYPES, { error: SOFTWARE_MESSAGES.contentType })
      .default(RELEASE_DEFAULT_CONTENT_TYPE),
  ),
});
export type ReleasePresignRequest = z.infer<typeof ReleasePresignRequestSchema>;

/** The release presign response (staff spec section 3: upload_url and s3_key). */
export const ReleasePresignSchema = z.object({ upload_url: z.string(), s3_key: z.string() });
export type ReleasePresign = z.infer<typeof ReleasePresignSchema>;

/** POST software/releases/{id}/file/confirm. */
export const ReleaseConfirmSchema = z.object({
  s3_key: z
    .string({ error: SOFTWARE_MESSAGES.s3KeyRequired })
    .min(1, SOFTWARE_MESSAGES.s3KeyRequired)
    .max(512)
    .refine(hasNoNul, SOFTWARE_MESSAGES.uploadForeign),
});
export type ReleaseConfirm = z.infer<typeof ReleaseConfirmSchema>;
