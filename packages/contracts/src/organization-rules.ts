/**
 * Organizations, their people, invitations and guests: texts and limits without a schema
 * library, so the web app can use them at runtime through `@flashbooth/contracts/rules` (the zod
 * schemas are in organizations.ts). Staff spec sections 2, 4, 5, 8 and 9.
 */

/** Page sizes (staff spec section 9): organizations, organization users and guests. */
export const ORGANIZATIONS_PAGE_SIZE = 10;
export const ORGANIZATION_USERS_PAGE_SIZE = 10;
export const GUESTS_PAGE_SIZE = 10;

/** Roles in an organization; input is lower-cased before it is checked. */
export const ORGANIZATION_ROLES = ['member', 'admin'] as const;
export type OrganizationRole = (typeof ORGANIZATION_ROLES)[number];

/**
 * An invitation is pending until the invitee accepts or denies it, staff cancel it, or
 * INVITE_TTL_DAYS pass without an answer (expired).
 */
export const INVITATION_STATES = ['pending', 'accepted', 'denied', 'cancelled', 'expired'] as const;
export type InvitationState = (typeof INVITATION_STATES)[number];

/** The Invite User dialog's phone field starts with this (staff spec section 9). */
export const INVITE_PHONE_PREFIX = '+91-';

/** The invite dialog's phone as sent: all but digits and plus removed ("+91-98…" → "+9198…"). */
export function stripPhoneInput(text: string): string {
  return text.replace(/[^\d+]/g, '');
}

/** Lower-cases and trims a role as typed or selected; whether it is valid is checked separately. */
export function normalizeRoleInput(text: string): string {
  return text.trim().toLowerCase();
}

export function isOrganizationRole(value: string): value is OrganizationRole {
  return (ORGANIZATION_ROLES as readonly string[]).includes(value);
}

/** Logos: JPEG or PNG (checked by magic bytes on confirm), at most 5 MB. */
export const LOGO_CONTENT_TYPES = ['image/jpeg', 'image/png'] as const;
export type LogoContentType = (typeof LOGO_CONTENT_TYPES)[number];
export const LOGO_MAX_BYTES = 5 * 1024 * 1024;

export const ORGANIZATION_NAME_MAX = 200;
export const ORGANIZATION_EMAIL_MAX = 254;
export const ORGANIZATION_PHONE_MAX = 32;
export const ORGANIZATION_ADDRESS_MAX = 500;

export const ORGANIZATION_MESSAGES = {
  // Validation (spec section 5) and the server's answers.
  nameRequired: 'Organization name is required.',
  nameTooLong: `Organization name must be at most ${ORGANIZATION_NAME_MAX} characters.`,
  emailInvalid: 'Please enter a valid email address',
  phoneTooLong: `Phone must be at most ${ORGANIZATION_PHONE_MAX} characters.`,
  phoneInvalid: 'Please enter a valid phone number.',
  /** The phone field's hint: what a valid organization phone looks like. */
  phoneHint: 'With the country code, like +91 80 4000 1234.',
  addressTooLong: `Address must be at most ${ORGANIZATION_ADDRESS_MAX} characters.`,
  noChanges: 'No changes to save.',
  notFound: 'Organization not found.',
  userNotFound: 'User not found.',
  inviteNotFound: 'Invitation not found.',
  inviteIdInvalid: 'invite_id must be a positive whole number.',
  invitePhoneRequired: 'Phone number is required.',
  invitePhoneInvalid: 'Please enter a valid phone number.',
  roleRequired: 'Role is required.',
  roleInvalid: 'Role must be member or admin.',
  ownRole: 'You cannot edit your own role.',
  removeSelf: 'You cannot remove yourself.',
  alreadyMember: 'This phone number already belongs to a member of this organization.',
  alreadyInvited: 'This phone number already has a pending invitation to this organization.',
  inviteNotPending: 'This invitation is no longer pending.',
  /** The Invite User dialog: invitations do not wait for ever (INVITE_TTL_DAYS, 14 by default). */
  inviteExpiryHint:
    'The invitation expires if it is not accepted in time; the card under Invitations Sent shows when.',
  /** `{org}` and `{when}` (dd/mm/yyyy hh:mm, UTC): an invitation not answered in time. */
  inviteExpired: (org: string, when: string) =>
    `This invitation to ${org} expired on ${when}. Ask an administrator of ${org} to invite you again.`,
  onlyOwnInvites: 'You can only see your own invitations.',
  onlyPrivileged: 'Only super users and Flashbooth admins can do this.',
  onlyOrgAdmins: "Only this organization's admins, super users and Flashbooth admins can do this.",
  logoType: 'Please select an image file.',
  logoFormat: 'The logo must be a JPEG or PNG image.',
  logoTooLarge: `The logo must be at most ${LOGO_MAX_BYTES / (1024 * 1024)} MB.`,
  logoKeyRequired: 'logo_key is required.',
  logoForeign: 'This upload does not belong to this organization.',
  logoNotUploaded: 'The logo has not been uploaded yet.',
  // The web app's texts (spec sections 2 and 8).
  createFailed: 'Failed to create organization.',
  acceptFailed: 'Failed to accept invitation. Please try again.',
  denyFailed: 'Failed to deny invitation. Please try again.',
  loadFailed: 'Failed to load organizations.',
  loadDetailsFailed: 'Failed to load organization details.',
  updateFailed: 'Failed to update organization.',
  logoUploadFailed: 'Failed to upload logo. Please try again.',
  deleteFailed: 'Failed to delete organization. Please try again.',
  loadUsersFailed: 'Failed to load users and invitations. Please try again.',
  inviteFailed: 'Failed to send invitation.',
  updateRoleFailed: 'Failed to update user role.',
  removeUserFailed: 'Failed to remove user. Please try again.',
  cancelInviteFailed: 'Failed to cancel invitation. Please try again.',
  permissionsFailed: 'Failed to get user permissions.',
  loadGuestsFailed: 'Failed to load guests. Please try again.',
  exportGuestsFailed: 'Failed to export guests. Please try again.',
  nameFallback: 'Organization',
  noUsers:
    'No users found for this organization. Invite new users using the "+Invite" button above.',
  noGuests: 'No guests found for this organization matching your search.',
  deleteConfirmTitle: 'Confirm Deletion',
  deleteConfirm: 'Are you sure you want to delete this organization?',
  removeUserConfirm: 'Are you sure you want to remove this user?',
  unknownInvitee: 'Unknown',
  noLogo: 'No logo',
  clickToUploadLogo: 'Click to upload logo',
  uploading: 'Uploading...',
  creating: 'Creating...',
  searchGuests: 'Search guests...',
  notAvailable: 'N/A',
} as const;

/** Deny confirmation: "Are you sure you want to deny the invitation to {org}?" */
export const denyInvitationConfirm = (orgName: string) =>
  `Are you sure you want to deny the invitation to ${orgName}?`;

/** The empty organization list (spec section 2), with the installation's support address. */
export const noOrganizationsMessage = (email: string) =>
  `You are not associated with any organization. Ask an administrator to add you, or contact ${email}.`;

/** "Demo Café" → "demo-cafe-guests.csv": the guest export's download name, safe characters. */
export function guestsCsvFilename(orgName: string): string {
  const slug = orgName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${slug || 'organization'}-guests.csv`;
}

/** The invitation SMS: "{inviter} invited you to join {org} on Flashbooth as {role}. Sign in at {url}". */
export const invitationSmsText = (inviter: string, orgName: string, role: string, url: string) =>
  `${inviter} invited you to join ${orgName} on Flashbooth as ${role}. Sign in at ${url}`;
