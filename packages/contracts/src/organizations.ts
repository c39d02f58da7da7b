import { z } from 'zod';
import {
  cursorListOf,
  CursorSchema,
  hasNoNul,
  idSchema,
  idTextSchema,
  limitSchema,
  listOf,
  nulMessage,
  OffsetSchema,
  SearchSchema,
  TimestampSchema,
} from './common.js';
import {
  GUESTS_PAGE_SIZE,
  INVITATION_STATES,
  LOGO_CONTENT_TYPES,
  normalizeRoleInput,
  ORGANIZATION_ADDRESS_MAX,
  ORGANIZATION_EMAIL_MAX,
  ORGANIZATION_MESSAGES,
  ORGANIZATION_NAME_MAX,
  ORGANIZATION_PHONE_MAX,
  ORGANIZATION_ROLES,
  ORGANIZATION_USERS_PAGE_SIZE,
  ORGANIZATIONS_PAGE_SIZE,
  stripPhoneInput,
} from './organization-rules.js';
import { isValidEmail, phoneFromText } from './rules.js';

const M = ORGANIZATION_MESSAGES;

// ---- Entities (staff spec section 3). ----

/** Organization: `logo_s3_url` is a presigned download (1 h), null without a logo. */
export const OrganizationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  created_at: TimestampSchema,
  logo_s3_url: z.string().nullable(),
});
export type Organization = z.infer<typeof OrganizationSchema>;

export const OrganizationRoleSchema = z.preprocess(
  (value) => (typeof value === 'string' ? normalizeRoleInput(value) : value),
  z.enum(ORGANIZATION_ROLES, {
    error: (issue) =>
      issue.input === undefined || issue.input === null || issue.input === ''
        ? M.roleRequired
        : M.roleInvalid,
  }),
);
export type OrganizationRoleValue = z.infer<typeof OrganizationRoleSchema>;

export const InvitationStateSchema = z.enum(INVITATION_STATES);
export type InvitationStateValue = z.infer<typeof InvitationStateSchema>;

/** Organization invitation as the invitee sees it (GET users/{id}/invites). */
export const OrganizationInvitationSchema = z.object({
  id: z.number().int(),
  org_id: z.number().int(),
  org_name: z.string(),
  /** Null when the inviting account no longer exists. */
  invited_by_name: z.string().nullable(),
  role: z.enum(ORGANIZATION_ROLES),
  invited_at: TimestampSchema,
  /** When it stops working unanswered (INVITE_TTL_DAYS after `invited_at`). */
  expires_at: TimestampSchema,
});
export type OrganizationInvitation = z.infer<typeof OrganizationInvitationSchema>;

/** GET users/{id}/invites: the person's pending invitations, newest first. */
export const OrganizationInvitationListSchema = z.object({
  items: z.array(OrganizationInvitationSchema),
});
export type OrganizationInvitationList = z.infer<typeof OrganizationInvitationListSchema>;

/** A member of an organization (GET organizations/{id}/users and …/users/{userId}). */
export const OrganizationUserSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  role: z.enum(ORGANIZATION_ROLES),
  phone: z.string(),
  joined_at: TimestampSchema,
});
export type OrganizationUser = z.infer<typeof OrganizationUserSchema>;

/**
 * A pending invitation as the organization sees it ("Invitations Sent"). `PK` is a stable key
 * for lists (`invite-{id}`); `name` is the organization's name; `invitee_name` is null until the
 * phone has a staff account (the screen shows "Unknown").
 */
export const SentInvitationSchema = z.object({
  PK: z.string(),
  id: z.number().int(),
  name: z.string(),
  invitee_name: z.string().nullable(),
  invitee_phone: z.string(),
  role: z.enum(ORGANIZATION_ROLES),
  invited_at: TimestampSchema,
  invited_by_name: z.string().nullable(),
  /** When it stops working unanswered (INVITE_TTL_DAYS after `invited_at`). */
  expires_at: TimestampSchema,
});
export type SentInvitation = z.infer<typeof SentInvitationSchema>;

/**
 * GET organizations/{id}/users: one page of members (`total_count` counts members) and every
 * pending invitation of the organization matching the same search (not paged).
 */
export const OrganizationUserListSchema = z.object({
  items: z.array(OrganizationUserSchema),
  invites: z.array(SentInvitationSchema),
  total_count: z.number().int(),
});
export type OrganizationUserList = z.infer<typeof OrganizationUserListSchema>;

/** A visitor who captured at one of the organization's booths; `last_visit` = latest capture. */
export const GuestSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  last_visit: TimestampSchema.nullable(),
});
export type Guest = z.infer<typeof GuestSchema>;

export const OrganizationListSchema = listOf(OrganizationSchema);
export type OrganizationList = z.infer<typeof OrganizationListSchema>;
export const GuestListSchema = cursorListOf(GuestSchema);
export type GuestList = z.infer<typeof GuestListSchema>;

// ---- Queries and paths. ----

/** search, limit (`pageSize` when absent) and offset of an offset-paged list. */
const pageQuery = (pageSize: number) =>
  z.object({ search: SearchSchema, limit: limitSchema(pageSize), offset: OffsetSchema });

export const OrganizationsQuerySchema = pageQuery(ORGANIZATIONS_PAGE_SIZE);
export type OrganizationsQuery = z.infer<typeof OrganizationsQuerySchema>;
export const OrganizationUsersQuerySchema = pageQuery(ORGANIZATION_USERS_PAGE_SIZE);
export type OrganizationUsersQuery = z.infer<typeof OrganizationUsersQuerySchema>;
/** GET organizations/{id}/guests: search on name, phone and email. */
export const GuestsQuerySchema = pageQuery(GUESTS_PAGE_SIZE).extend({ cursor: CursorSchema });
export type GuestsQuery = z.infer<typeof GuestsQuerySchema>;

/** GET organizations/{id}/guests/export.csv: the same search, every matching guest. */
export const GuestsExportQuerySchema = z.object({ search: SearchSchema });
export type GuestsExportQuery = z.infer<typeof GuestsExportQuerySchema>;

export const OrganizationUserParamsSchema = z.object({
  id: idTextSchema('id must be a positive whole number.'),
  userId: idTextSchema('userId must be a positive whole number.'),
});
export type OrganizationUserParams = z.infer<typeof OrganizationUserParamsSchema>;

export const OrganizationInviteParamsSchema = z.object({
  id: idTextSchema('id must be a positive whole number.'),
  inviteId: idTextSchema('inviteId must be a positive whole number.'),
});
export type OrganizationInviteParams = z.infer<typeof OrganizationInviteParamsSchema>;

// ---- Request bodies. ----

/** Optional text: trimmed, empty or null means none (null). */
function optionalText(field: string, max: number, tooLong: string) {
  return z
    .string({ error: `${field} must be text.` })
    .trim()
    .refine(hasNoNul, nulMessage(field))
    .max(max, tooLong)
    .nullable()
    .optional()
    .transform((value) => (value === '' ? null : value));
}

const organizationName = (missing: string) =>
  z
    .string({ error: missing })
    .trim()
    .min(1, missing)
    .refine(hasNoNul, nulMessage('Organization name'))
    .max(ORGANIZATION_NAME_MAX, M.nameTooLong);

const organizationEmail = optionalText('Email', ORGANIZATION_EMAIL_MAX, M.emailInvalid).refine(
  (value) => value == null || isValidEmail(value),
  M.emailInvalid,
);
/** An office line as written ("+91 80 4000 1234"), kept so; it must be a phone with its country code. */
const organizationPhone = optionalText('Phone', ORGANIZATION_PHONE_MAX, M.phoneTooLong).refine(
  (value) => value == null || phoneFromText(value) !== null,
  M.phoneInvalid,
);
const organizationAddress = optionalText('Address', ORGANIZATION_ADDRESS_MAX, M.addressTooLong);

/** POST organizations: name required; email, phone and address optional ('' = none). */
export const OrganizationCreateSchema = z
  .object({
    name: organizationName(M.nameRequired),
    email: organizationEmail,
    phone: organizationPhone,
    address: organizationAddress,
  })
  .strict();
export type OrganizationCreate = z.infer<typeof OrganizationCreateSchema>;
export type OrganizationCreateBody = z.input<typeof OrganizationCreateSchema>;

const ORGANIZATION_PATCH_FIELDS = ['name', 'email', 'phone', 'address'] as const;

/** PATCH organizations/{id}: only the changed fields, at least one ('' or null clears). */
export const OrganizationPatchSchema = z
  .object({
    name: organizationName(M.nameRequired).optional(),
    email: organizationEmail,
    phone: organizationPhone,
    address: organizationAddress,
  })
  .strict()
  .refine((body) => ORGANIZATION_PATCH_FIELDS.some((field) => body[field] !== undefined), {
    message: M.noChanges,
  });
export type OrganizationPatch = z.infer<typeof OrganizationPatchSchema>;
export type OrganizationPatchBody = z.input<typeof OrganizationPatchSchema>;

/** An invitee's phone: only a phone's characters, then E.164 once all but digits and plus is removed. */
export const InvitePhoneSchema = z
  .string({ error: M.invitePhoneRequired })
  .transform((text, ctx) => {
    if (stripPhoneInput(text) === '') {
      ctx.addIssue({ code: 'custom', message: M.invitePhoneRequired });
      return z.NEVER;
    }
    const phone = phoneFromText(text);
    if (phone === null) {
      ctx.addIssue({ code: 'custom', message: M.invitePhoneInvalid });
      return z.NEVER;
    }
    return phone;
  });
export type InvitePhone = z.infer<typeof InvitePhoneSchema>;

/** POST organizations/{id}/invites. */
export const OrganizationInviteCreateSchema = z.object({
  role: OrganizationRoleSchema,
  invitee_phone: InvitePhoneSchema,
});
export type OrganizationInviteCreate = z.infer<typeof OrganizationInviteCreateSchema>;
export type OrganizationInviteCreateBody = z.input<typeof OrganizationInviteCreateSchema>;

/**
 * POST organizations/{id}/invites/accept and …/deny, by the invitee. A phone has at most one
 * pending invitation per organization, so the path names it; `invite_id` (from the invitations
 * list) may be sent as well and must then be that invitation. No body is fine.
 */
export const InviteResponseSchema = z
  .object({
    invite_id: idSchema(M.inviteIdInvalid).optional(),
  })
  .strict()
  .nullish();
export type InviteResponse = z.infer<typeof InviteResponseSchema>;

/** The answer to accept and deny. */
export const InviteOutcomeSchema = z.object({
  id: z.number().int(),
  org_id: z.number().int(),
  role: z.enum(ORGANIZATION_ROLES),
  status: InvitationStateSchema,
});
export type InviteOutcome = z.infer<typeof InviteOutcomeSchema>;

/** PATCH organizations/{id}/users/{userId}. */
export const OrganizationUserPatchSchema = z.object({ role: OrganizationRoleSchema }).strict();
export type OrganizationUserPatch = z.infer<typeof OrganizationUserPatchSchema>;
export type OrganizationUserPatchBody = z.input<typeof OrganizationUserPatchSchema>;

/** POST organizations/{id}/logo/presigned_upload: only JPEG and PNG. */
export const LogoPresignRequestSchema = z.object({
  filename: z.string().max(255).refine(hasNoNul, nulMessage('filename')).optional(),
  contentType: z.preprocess(
    (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
    z
      .string({ error: M.logoType })
      .refine((type) => type.startsWith('image/'), M.logoType)
      .pipe(z.enum(LOGO_CONTENT_TYPES, { error: M.logoFormat })),
  ),
});
export type LogoPresignRequest = z.infer<typeof LogoPresignRequestSchema>;

export const LogoPresignSchema = z.object({ logo_key: z.string(), upload_url: z.string() });
export type LogoPresign = z.infer<typeof LogoPresignSchema>;

/** POST organizations/{id}/logo/confirm → the Organization with its new logo. */
export const LogoConfirmSchema = z.object({
  logo_key: z
    .string({ error: M.logoKeyRequired })
    .min(1, M.logoKeyRequired)
    .max(512)
    .refine(hasNoNul, nulMessage('logo_key')),
});
export type LogoConfirm = z.infer<typeof LogoConfirmSchema>;
