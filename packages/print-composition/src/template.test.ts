import { captureCount } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import {
  canvasSize,
  LAYOUTS,
  photoIndexForSlot,
  printLayout,
  type LayoutName,
} from './template.js';

describe('Template Studio layouts', () => {
  const expected: Record<
    LayoutName,
    { canvas: [number, number]; slots: number; size: [number, number] }
  > = {
    landscape3: { canvas: [3600, 2400], slots: 3, size: [1620, 1080] },
    landscape1: { canvas: [3600, 2400], slots: 1, size: [2880, 1920] },
    portrait6: { canvas: [2400, 3600], slots: 6, size: [1080, 720] },
  };

  for (const [name, want] of Object.entries(expected) as [
    LayoutName,
    (typeof expected)[LayoutName],
  ][]) {
    it(`${name}: canvas, slot count and 3:2 slot size, every slot on the canvas without overlap`, () => {
      const layout = LAYOUTS[name];
      expect([layout.canvas.width, layout.canvas.height]).toEqual(want.canvas);
      expect(canvasSize(layout.orientation)).toEqual(layout.canvas);
      expect(layout.images).toHaveLength(want.slots);
      for (const [i, slot] of layout.images.entries()) {
        expect([slot.w, slot.h]).toEqual(want.size);
        expect(slot.w / slot.h).toBeCloseTo(1.5);
        expect(slot.x).toBeGreaterThanOrEqual(0);
        expect(slot.y).toBeGreaterThanOrEqual(0);
        expect(slot.x + slot.w).toBeLessThanOrEqual(layout.canvas.width);
        expect(slot.y + slot.h).toBeLessThanOrEqual(layout.canvas.height);
        for (const other of layout.images.slice(i + 1)) {
          const apart =
            slot.x + slot.w <= other.x ||
            other.x + other.w <= slot.x ||
            slot.y + slot.h <= other.y ||
            other.y + other.h <= slot.y;
          expect(apart).toBe(true);
        }
      }
    });
  }

  it('portrait6 is two 1200 px strips: the second strip is the first moved right by 1200', () => {
    const slots = LAYOUTS.portrait6.images;
    const first = slots.slice(0, 3);
    const second = slots.slice(3);
    expect(first.map((s) => [s.x, s.y])).toEqual([
      [61, 555],
      [61, 1440],
      [61, 2325],
    ]);
    expect(second.map((s) => [s.x - 1200, s.y])).toEqual(first.map((s) => [s.x, s.y]));
    for (const slot of first) expect(slot.x + slot.w).toBeLessThanOrEqual(1200);
  });

  it('the constants cannot be changed by accident', () => {
    expect(Object.isFrozen(LAYOUTS.landscape3.images[0])).toBe(true);
  });
});

// The shared rule (contracts' captureCount, which the server sends as total_captures) on the
// layouts the booth composes.
describe('captureCount', () => {
  const cases: [LayoutName, number, number][] = [
    ['landscape3', 3, 2],
    ['landscape1', 1, 1],
    ['portrait6', 6, 3],
  ];
  for (const [name, unique, duplicated] of cases) {
    it(`${name}: ${unique} photos, ${duplicated} when duplicated`, () => {
      const images = [...LAYOUTS[name].images];
      expect(captureCount(images.length, false)).toBe(unique);
      expect(captureCount(images.length, true)).toBe(duplicated);
    });
  }

  it('no slots, no photos', () => {
    expect(captureCount(0, true)).toBe(0);
  });
});

describe('photoIndexForSlot', () => {
  it('the second half of a duplicated template reuses the first half', () => {
    const template = { images: [...LAYOUTS.portrait6.images], is_duplicated: true };
    expect([0, 1, 2, 3, 4, 5].map((i) => photoIndexForSlot(template, i))).toEqual([
      0, 1, 2, 0, 1, 2,
    ]);
    expect(
      [0, 1, 2, 3, 4, 5].map((i) => photoIndexForSlot({ ...template, is_duplicated: false }, i)),
    ).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe('printLayout', () => {
  it('is_cut makes two strips', () => {
    expect(printLayout({ is_cut: true })).toEqual({ strips: 2 });
    expect(printLayout({ is_cut: false })).toEqual({ strips: 1 });
  });
});
