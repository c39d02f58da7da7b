import { describe, expect, it } from 'vitest';
import {
  denyInvitationConfirm,
  guestsCsvFilename,
  invitationSmsText,
  isOrganizationRole,
  normalizeRoleInput,
  ORGANIZATION_MESSAGES as M,
  stripPhoneInput,
} from './organization-rules.js';
import {
  InviteResponseSchema,
  LogoPresignRequestSchema,
  OrganizationCreateSchema,
  OrganizationInviteCreateSchema,
  OrganizationPatchSchema,
  OrganizationUserPatchSchema,
} from './organizations.js';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? [] : result.error!.issues.map((issue) => issue.message);

describe('organization rules', () => {
  it('strips the invite phone to digits and plus, and lower-cases roles', () => {
    expect(stripPhoneInput('+91-98765 43210')).toBe('+919876543210');
    expect(stripPhoneInput('(+91) 98-76')).toBe('+919876');
    expect(normalizeRoleInput(' Admin ')).toBe('admin');
    expect(isOrganizationRole('admin')).toBe(true);
    expect(isOrganizationRole('owner')).toBe(false);
  });

  it('words the SMS and the deny confirmation as the issue and spec do', () => {
    expect(invitationSmsText('Asha', 'Demo Café', 'member', '/enterprise/login')).toBe(
      'Asha invited you to join Demo Café on Flashbooth as member. Sign in at /enterprise/login',
    );
    expect(denyInvitationConfirm('Demo Café')).toBe(
      'Are you sure you want to deny the invitation to Demo Café?',
    );
  });

  it('names the guest export after the organization with safe characters only', () => {
    expect(guestsCsvFilename('Flashbooth Demo Café')).toBe('flashbooth-demo-cafe-guests.csv');
    expect(guestsCsvFilename('../"evil"\r\n')).toBe('evil-guests.csv');
    expect(guestsCsvFilename('日本')).toBe('organization-guests.csv');
    expect(guestsCsvFilename('Café Demo Org!')).toBe('cafe-demo-org-guests.csv');
    expect(guestsCsvFilename('***')).toBe('organization-guests.csv');
  });
});

describe('organization schemas', () => {
  it('normalises an invitation and reports one message per field', () => {
    expect(
      OrganizationInviteCreateSchema.parse({ role: 'MEMBER', invitee_phone: '+91-98765 43210' }),
    ).toEqual({ role: 'member', invitee_phone: '+919876543210' });
    expect(messages(OrganizationInviteCreateSchema.safeParse({ invitee_phone: '+91-' }))).toEqual([
      M.roleRequired,
      M.invitePhoneInvalid,
    ]);
    expect(
      messages(OrganizationInviteCreateSchema.safeParse({ role: 'owner', invitee_phone: '' })),
    ).toEqual([M.roleInvalid, M.invitePhoneRequired]);
    expect(messages(OrganizationUserPatchSchema.safeParse({ role: '' }))).toEqual([M.roleRequired]);
    expect(
      messages(
        OrganizationInviteCreateSchema.safeParse({
          role: 'member',
          invitee_phone: '+91-98765abc43210',
        }),
      ),
    ).toEqual([M.invitePhoneInvalid]);
  });

  it('checks an organization phone as a phone, kept as written (issue 20 item 9)', () => {
    expect(messages(OrganizationCreateSchema.safeParse({ name: 'Café', phone: 'abc' }))).toEqual([
      M.phoneInvalid,
    ]);
    expect(messages(OrganizationPatchSchema.safeParse({ phone: '080 1234' }))).toEqual([
      M.phoneInvalid,
    ]);
    expect(M.phoneInvalid).toBe('Please enter a valid phone number.');
    expect(OrganizationCreateSchema.parse({ name: 'Café', phone: ' +91 80 4000 1234 ' })).toEqual({
      name: 'Café',
      phone: '+91 80 4000 1234',
    });
    expect(OrganizationPatchSchema.parse({ phone: '' })).toEqual({ phone: null });
  });

  it('requires a name on create and one changed field on edit; empty text clears', () => {
    expect(messages(OrganizationCreateSchema.safeParse({ name: '  ' }))).toEqual([M.nameRequired]);
    expect(OrganizationCreateSchema.parse({ name: ' Café ', email: '' })).toEqual({
      name: 'Café',
      email: null,
    });
    expect(messages(OrganizationPatchSchema.safeParse({}))).toEqual([M.noChanges]);
    expect(OrganizationPatchSchema.parse({ address: '' })).toEqual({ address: null });
    expect(messages(OrganizationPatchSchema.safeParse({ email: 'a@b' }))).toEqual([M.emailInvalid]);
  });

  it('accepts only JPEG and PNG logos, telling non-images apart', () => {
    expect(LogoPresignRequestSchema.parse({ contentType: ' Image/PNG ' })).toEqual({
      contentType: 'image/png',
    });
    expect(messages(LogoPresignRequestSchema.safeParse({ contentType: 'text/html' }))).toEqual([
      M.logoType,
    ]);
    expect(messages(LogoPresignRequestSchema.safeParse({ contentType: 'image/webp' }))).toEqual([
      M.logoFormat,
    ]);
  });

  it('takes accept and deny with no body or an invite id', () => {
    expect(InviteResponseSchema.parse(undefined)).toBeUndefined();
    expect(InviteResponseSchema.parse({ invite_id: 4 })).toEqual({ invite_id: 4 });
    expect(messages(InviteResponseSchema.safeParse({ invite_id: 0 }))).toEqual([M.inviteIdInvalid]);
  });
});
