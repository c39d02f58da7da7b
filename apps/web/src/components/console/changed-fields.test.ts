import { describe, expect, it } from 'vitest';
import { changedFields, isEmptyChange } from './changed-fields';

const KEYS = ['name', 'phone', 'email', 'address'] as const;
const record = { name: 'Demo Org', phone: '+919000000000', email: null, address: 'Bangalore' };
const form = (overrides: Partial<Record<(typeof KEYS)[number], string>> = {}) => ({
  name: 'Demo Org',
  phone: '+919000000000',
  email: '',
  address: 'Bangalore',
  ...overrides,
});

describe('changedFields', () => {
  it('is empty when nothing changed (null on the record and empty in the form are the same)', () => {
    const changes = changedFields(record, form(), KEYS);
    expect(changes).toEqual({});
    expect(isEmptyChange(changes)).toBe(true);
  });

  it('ignores whitespace around an unchanged value', () => {
    expect(changedFields(record, form({ name: '  Demo Org ' }), KEYS)).toEqual({});
  });

  it('sends only the changed fields, trimmed', () => {
    const changes = changedFields(
      record,
      form({ name: ' New Name ', email: 'hello@venue.example' }),
      KEYS,
    );
    expect(changes).toEqual({ name: 'New Name', email: 'hello@venue.example' });
    expect(isEmptyChange(changes)).toBe(false);
  });

  it('sends a cleared field as an empty string', () => {
    expect(changedFields(record, form({ address: '   ' }), KEYS)).toEqual({ address: '' });
  });
});
