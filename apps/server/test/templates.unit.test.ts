import { newTemplateSlot } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../src/modules/templates/templates.service.js';

describe('the booth template cursor', () => {
  it('round-trips ids as opaque base64url', () => {
    for (const id of [1, 9, 12345, 2_147_483_647]) {
      const cursor = encodeCursor(id);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeCursor(cursor)).toBe(id);
    }
  });

  it('refuses anything it did not make', () => {
    for (const bad of [
      '',
      'abc!',
      encodeCursor(1) + '=',
      Buffer.from('0').toString('base64url'),
      Buffer.from('01').toString('base64url'),
      Buffer.from('-5').toString('base64url'),
      Buffer.from('1.5').toString('base64url'),
      Buffer.from('2147483648').toString('base64url'),
      Buffer.from('12 ').toString('base64url'),
    ]) {
      expect(() => decodeCursor(bad), bad).toThrow('Invalid last_evaluated_key.');
    }
  });
});

describe('new image slots (staff spec section 5)', () => {
  it('are 1080×720 without filter, placed by how many slots exist', () => {
    expect(newTemplateSlot(0)).toEqual({ x: 61, y: 555, w: 1080, h: 720, filter: 'none' });
    expect(newTemplateSlot(1)).toMatchObject({ x: 61, y: 1440 });
    expect(newTemplateSlot(2)).toMatchObject({ x: 61, y: 2325 });
    expect(newTemplateSlot(3)).toMatchObject({ x: 0, y: 0, w: 1080, h: 720 });
  });
});
