import type {
  Organization,
  OrganizationCreateBody,
  OrganizationInviteCreateBody,
  OrganizationPatchBody,
} from '@flashbooth/contracts';
import {
  INVITE_PHONE_PREFIX,
  LOGO_CONTENT_TYPES,
  LOGO_MAX_BYTES,
  ORGANIZATION_MESSAGES,
  isOrganizationRole,
  isValidEmail,
  normalizeRoleInput,
  phoneFromText,
  stripPhoneInput,
  type OrganizationRole,
} from '@flashbooth/contracts/rules';
import { changedFields, isEmptyChange } from '@/components/console/changed-fields';
import type { FormOutcome } from '@/components/console/use-form-submit';

const M = ORGANIZATION_MESSAGES;

/** Spec section 9: messages hide after 5 s (the return after a delete: the console kit's). */
export const ORGANIZATION_STATUS_MS = 5000;

/** The screens' own texts beyond the spec's (successes, a search that finds nothing). */
export const ORGANIZATION_SCREEN_TEXT = {
  created: (name: string) => `Organization "${name}" created.`,
  updated: 'Organization updated successfully!',
  logoUploaded: 'Logo uploaded successfully!',
  deleted: 'Organization deleted successfully.',
  accepted: (org: string) => `You joined ${org}.`,
  denied: (org: string) => `Invitation to ${org} denied.`,
  invited: (phone: string) => `Invitation sent to ${phone}.`,
  roleUpdated: 'User role updated successfully!',
  removed: 'User removed from the organization.',
  inviteCancelled: 'Invitation cancelled.',
  exported: (file: string) => `Downloaded ${file}.`,
  noSearchMatch: (search: string) => `No organizations match “${search}”.`,
} as const;

/** The four fields of the Create Organization dialog and the edit form. */
export interface OrganizationFormValues {
  name: string;
  email: string;
  phone: string;
  address: string;
}
export const ORGANIZATION_FIELDS = ['name', 'phone', 'email', 'address'] as const;

export const EMPTY_ORGANIZATION_FORM: OrganizationFormValues = {
  name: '',
  email: '',
  phone: '',
  address: '',
};

export function formFromOrganization(organization: Organization): OrganizationFormValues {
  return {
    name: organization.name,
    email: organization.email ?? '',
    phone: organization.phone ?? '',
    address: organization.address ?? '',
  };
}

/** Spec section 5: the name is required; the rest is optional ('' is none). */
export function createOrganizationBody(
  form: OrganizationFormValues,
): FormOutcome<OrganizationCreateBody> {
  const body = {
    name: form.name.trim(),
    email: form.email.trim(),
    phone: form.phone.trim(),
    address: form.address.trim(),
  };
  if (!body.name) return { kind: 'invalid', message: M.nameRequired };
  if (body.email && !isValidEmail(body.email)) return { kind: 'invalid', message: M.emailInvalid };
  if (body.phone && !phoneFromText(body.phone)) return { kind: 'invalid', message: M.phoneInvalid };
  return { kind: 'ok', body };
}

/**
 * Spec section 5: only the changed fields among name, phone, email and address are sent; none
 * changed gives "No changes to save." (`kind: 'unchanged'`).
 */
export function organizationPatch(
  organization: Organization,
  form: OrganizationFormValues,
): FormOutcome<OrganizationPatchBody> {
  const changes = changedFields(organization, form, ORGANIZATION_FIELDS);
  if (isEmptyChange(changes)) return { kind: 'unchanged', message: M.noChanges };
  if (changes.name !== undefined && changes.name === '') {
    return { kind: 'invalid', message: M.nameRequired };
  }
  if (changes.email && !isValidEmail(changes.email)) {
    return { kind: 'invalid', message: M.emailInvalid };
  }
  if (changes.phone && !phoneFromText(changes.phone)) {
    return { kind: 'invalid', message: M.phoneInvalid };
  }
  return { kind: 'ok', body: changes };
}

/** The Invite User dialog starts with the default prefix and the Member role (spec section 9). */
export const INITIAL_INVITE = { phone: INVITE_PHONE_PREFIX, role: 'member' as OrganizationRole };

/**
 * Spec section 5: the phone keeps only digits and plus ("+91-98…" → "+9198…") and is required
 * (letters make it no phone at all); the role is lower-cased and must be member or admin.
 */
export function inviteBody(
  phone: string,
  role: string,
): FormOutcome<OrganizationInviteCreateBody & { invitee_phone: string; role: OrganizationRole }> {
  const invitee = stripPhoneInput(phone);
  if (invitee === '' || invitee === stripPhoneInput(INVITE_PHONE_PREFIX)) {
    return { kind: 'invalid', message: M.invitePhoneRequired };
  }
  const e164 = phoneFromText(phone);
  if (e164 === null) return { kind: 'invalid', message: M.invitePhoneInvalid };
  const normalizedRole = normalizeRoleInput(role);
  if (!normalizedRole) return { kind: 'invalid', message: M.roleRequired };
  if (!isOrganizationRole(normalizedRole)) return { kind: 'invalid', message: M.roleInvalid };
  return { kind: 'ok', body: { invitee_phone: e164, role: normalizedRole } };
}

/** Edit User Role: required, member or admin, and never one's own (spec section 5). */
export function roleChange(
  role: string,
  target: { id: number },
  selfId: number | null,
): FormOutcome<{ role: OrganizationRole }> {
  if (selfId !== null && target.id === selfId) return { kind: 'invalid', message: M.ownRole };
  const normalized = normalizeRoleInput(role);
  if (!normalized) return { kind: 'invalid', message: M.roleRequired };
  if (!isOrganizationRole(normalized)) return { kind: 'invalid', message: M.roleInvalid };
  return { kind: 'ok', body: { role: normalized } };
}

/**
 * The logo must be an image (spec: "Please select an image file."); the server keeps JPEG and
 * PNG up to 5 MB, which is said before anything is sent.
 */
export function logoFileError(file: Pick<File, 'type' | 'size'>): string | null {
  if (!file.type.startsWith('image/')) return M.logoType;
  if (!(LOGO_CONTENT_TYPES as readonly string[]).includes(file.type)) return M.logoFormat;
  if (file.size > LOGO_MAX_BYTES) return M.logoTooLarge;
  return null;
}

/** A guest's optional field, or "N/A" (spec: Organization guests). */
export function orNotAvailable(value: string | null | undefined): string {
  return value && value.trim() ? value : M.notAvailable;
}

/** The organization's name for titles, or "Organization" while unknown or when it failed. */
export function organizationTitle(organization: { name: string } | undefined): string {
  return organization?.name || M.nameFallback;
}

/** "member" → "Member" in selects and badges. */
export function roleLabel(role: string): string {
  return role.charAt(0).toUpperCase() + role.slice(1);
}
