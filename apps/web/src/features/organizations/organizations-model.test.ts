import type { Organization } from '@flashbooth/contracts';
import { ORGANIZATION_MESSAGES as M } from '@flashbooth/contracts/rules';
import { describe, expect, it } from 'vitest';
import {
  createOrganizationBody,
  formFromOrganization,
  INITIAL_INVITE,
  inviteBody,
  logoFileError,
  orNotAvailable,
  organizationPatch,
  organizationTitle,
  roleChange,
} from './organizations-model';

const organization = (overrides: Partial<Organization> = {}): Organization => ({
  id: 3,
  name: 'Demo Org',
  email: 'hello@demo.example',
  phone: null,
  address: '12 MG Road, Bangalore',
  created_at: '2025-05-14T09:05:59',
  logo_s3_url: null,
  ...overrides,
});

describe('Create Organization', () => {
  it('requires a name', () => {
    expect(createOrganizationBody({ name: '  ', email: '', phone: '', address: '' })).toEqual({
      kind: 'invalid',
      message: M.nameRequired,
    });
  });

  it('sends the trimmed fields, empty ones as none', () => {
    expect(
      createOrganizationBody({
        name: ' Venue ',
        email: '',
        phone: ' +91 80 4000 1234 ',
        address: '',
      }),
    ).toEqual({
      kind: 'ok',
      body: { name: 'Venue', email: '', phone: '+91 80 4000 1234', address: '' },
    });
  });

  it('checks the phone as a phone (issue 20 item 9)', () => {
    for (const phone of ['abc', '+91 98', '080 4000 1234', '+91 80 4000 12ab']) {
      expect(createOrganizationBody({ name: 'Venue', email: '', phone, address: '' })).toEqual({
        kind: 'invalid',
        message: 'Please enter a valid phone number.',
      });
    }
  });

  it('refuses an email that does not look like one', () => {
    expect(
      createOrganizationBody({ name: 'Venue', email: 'nope', phone: '', address: '' }),
    ).toEqual({ kind: 'invalid', message: M.emailInvalid });
  });
});

describe('Edit Organization', () => {
  it('says "No changes to save." when nothing changed', () => {
    const record = organization();
    expect(organizationPatch(record, formFromOrganization(record))).toEqual({
      kind: 'unchanged',
      message: 'No changes to save.',
    });
  });

  it('sends only the changed fields', () => {
    const record = organization();
    expect(
      organizationPatch(record, { ...formFromOrganization(record), phone: '+91 80 1234 5678' }),
    ).toEqual({ kind: 'ok', body: { phone: '+91 80 1234 5678' } });
    expect(
      organizationPatch(record, { ...formFromOrganization(record), name: 'New', address: '' }),
    ).toEqual({ kind: 'ok', body: { name: 'New', address: '' } });
  });

  it('keeps the name required, the email valid and the phone a phone', () => {
    const record = organization();
    expect(organizationPatch(record, { ...formFromOrganization(record), phone: 'abc' })).toEqual({
      kind: 'invalid',
      message: 'Please enter a valid phone number.',
    });
    expect(organizationPatch(record, { ...formFromOrganization(record), name: ' ' })).toEqual({
      kind: 'invalid',
      message: M.nameRequired,
    });
    expect(
      organizationPatch(record, { ...formFromOrganization(record), email: 'x@' }),
    ).toMatchObject({ kind: 'invalid', message: M.emailInvalid });
  });
});

describe('Invite User', () => {
  it('starts with +91- and Member', () => {
    expect(INITIAL_INVITE).toEqual({ phone: '+91-', role: 'member' });
  });

  it('keeps only digits and plus, and lower-cases the role', () => {
    expect(inviteBody('+91-98765 43210', 'Admin')).toEqual({
      kind: 'ok',
      body: { invitee_phone: '+919876543210', role: 'admin' },
    });
    expect(inviteBody(' +91 (987) 654-3210 ', 'member')).toMatchObject({
      body: { invitee_phone: '+919876543210' },
    });
  });

  it('requires a phone (the prefix alone is none)', () => {
    expect(inviteBody('', 'member')).toEqual({ kind: 'invalid', message: M.invitePhoneRequired });
    expect(inviteBody('+91-', 'member')).toEqual({
      kind: 'invalid',
      message: M.invitePhoneRequired,
    });
    expect(inviteBody('+91-12', 'member')).toEqual({
      kind: 'invalid',
      message: M.invitePhoneInvalid,
    });
    expect(inviteBody('+91-98765abc43210', 'member')).toEqual({
      kind: 'invalid',
      message: M.invitePhoneInvalid,
    });
  });

  it('requires member or admin', () => {
    expect(inviteBody('+919876543210', '')).toEqual({ kind: 'invalid', message: M.roleRequired });
    expect(inviteBody('+919876543210', 'owner')).toEqual({
      kind: 'invalid',
      message: M.roleInvalid,
    });
  });
});

describe('Edit User Role', () => {
  it('never changes one’s own role', () => {
    expect(roleChange('admin', { id: 4 }, 4)).toEqual({ kind: 'invalid', message: M.ownRole });
  });

  it('requires a role and lower-cases it', () => {
    expect(roleChange('', { id: 4 }, 1)).toEqual({ kind: 'invalid', message: M.roleRequired });
    expect(roleChange('ADMIN', { id: 4 }, 1)).toEqual({ kind: 'ok', body: { role: 'admin' } });
  });
});

describe('logoFileError', () => {
  it('asks for an image file', () => {
    expect(logoFileError({ type: 'application/pdf', size: 10 })).toBe(M.logoType);
    expect(logoFileError({ type: '', size: 10 })).toBe('Please select an image file.');
  });

  it('accepts JPEG and PNG up to 5 MB', () => {
    expect(logoFileError({ type: 'image/png', size: 1000 })).toBeNull();
    expect(logoFileError({ type: 'image/jpeg', size: 5 * 1024 * 1024 })).toBeNull();
    expect(logoFileError({ type: 'image/jpeg', size: 5 * 1024 * 1024 + 1 })).toBe(M.logoTooLarge);
    expect(logoFileError({ type: 'image/webp', size: 1000 })).toBe(M.logoFormat);
  });
});

describe('display fallbacks', () => {
  it('shows N/A for a guest’s missing field', () => {
    expect(orNotAvailable(null)).toBe('N/A');
    expect(orNotAvailable('  ')).toBe('N/A');
    expect(orNotAvailable('a@b.example')).toBe('a@b.example');
  });

  it('falls back to "Organization" for a name that did not load', () => {
    expect(organizationTitle(undefined)).toBe('Organization');
    expect(organizationTitle({ name: 'Demo Org' })).toBe('Demo Org');
  });
});
