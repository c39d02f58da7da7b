import { describe, expect, it } from 'vitest';
import {
  associateOrgId,
  canCreateTemplate,
  cardLayout,
  createTemplateBody,
  EMPTY_TEMPLATE_FORM,
  orgLabel,
  TEMPLATE_TEXT,
  templateTitle,
} from './templates-model';

describe('template cards (staff spec section 2)', () => {
  it('span two columns at 3:2 when landscape, one at 2:3 when portrait', () => {
    expect(cardLayout('landscape')).toEqual({ span: 2, aspectRatio: '3 / 2' });
    expect(cardLayout('portrait')).toEqual({ span: 1, aspectRatio: '2 / 3' });
  });
});

describe('creating a template', () => {
  it('starts portrait with no name, and Create is disabled until a name is typed', () => {
    expect(EMPTY_TEMPLATE_FORM).toEqual({ name: '', orientation: 'portrait' });
    expect(canCreateTemplate(EMPTY_TEMPLATE_FORM)).toBe(false);
    expect(canCreateTemplate({ name: '   ', orientation: 'portrait' })).toBe(false);
    expect(canCreateTemplate({ name: 'a', orientation: 'portrait' })).toBe(true);
  });

  it('sends the trimmed name with the orientation, or gives the spec message', () => {
    expect(createTemplateBody({ name: '  Wedding ', orientation: 'landscape' })).toEqual({
      kind: 'ok',
      body: { name: 'Wedding', orientation: 'landscape' },
    });
    expect(createTemplateBody({ name: ' \t', orientation: 'portrait' })).toEqual({
      kind: 'invalid',
      message: 'Template name is required.',
    });
  });
});

describe('associating an organization', () => {
  it('trims the id and requires it', () => {
    expect(associateOrgId(' 12 ')).toEqual({ kind: 'ok', orgId: '12' });
    expect(associateOrgId('   ')).toEqual({
      kind: 'invalid',
      message: 'Organization ID is required.',
    });
    for (const bad of ['0', '-1', '1.5', 'abc', '01']) {
      expect(associateOrgId(bad).kind, bad).toBe('invalid');
    }
  });
});

describe('names shown', () => {
  it('falls back to "Org {id}" and "Template"', () => {
    expect(orgLabel({ id: 7, name: '' })).toBe('Org 7');
    expect(orgLabel({ id: 7, name: null })).toBe('Org 7');
    expect(orgLabel({ id: 7, name: 'Sunrise' })).toBe('Sunrise');
    expect(templateTitle(undefined)).toBe('Template');
    expect(templateTitle({ name: 'Wedding' })).toBe('Wedding');
  });

  it('words the association messages as the spec does', () => {
    expect(TEMPLATE_TEXT.associated('3')).toBe('Template associated with organization "3".');
    expect(TEMPLATE_TEXT.removed('Sunrise')).toBe('Template removed from organization "Sunrise".');
  });
});
