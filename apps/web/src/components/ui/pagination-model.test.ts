import { describe, expect, it } from 'vitest';
import { pageCount, pageSlots, type PageSlot } from './pagination-model';

/** Slots as a compact string: page numbers and … for gaps. */
const render = (slots: PageSlot[]) =>
  slots.map((slot) => (slot.kind === 'page' ? String(slot.page) : '…')).join(' ');

describe('pageCount', () => {
  it('rounds up and is at least 1', () => {
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(1, 10)).toBe(1);
    expect(pageCount(10, 10)).toBe(1);
    expect(pageCount(11, 10)).toBe(2);
    expect(pageCount(95, 10)).toBe(10);
    expect(pageCount(Number.NaN, 10)).toBe(1);
  });
});

describe('pageSlots', () => {
  it('shows a single page', () => {
    expect(render(pageSlots(1, 1))).toBe('1');
  });

  it('shows every page when there are few', () => {
    expect(render(pageSlots(1, 2))).toBe('1 2');
    expect(render(pageSlots(2, 3))).toBe('1 2 3');
    expect(render(pageSlots(1, 3))).toBe('1 2 3');
  });

  it('shows first, last and neighbours within 1, with ellipses', () => {
    expect(render(pageSlots(1, 10))).toBe('1 2 … 10');
    expect(render(pageSlots(5, 10))).toBe('1 … 4 5 6 … 10');
    expect(render(pageSlots(10, 10))).toBe('1 … 9 10');
    expect(render(pageSlots(3, 10))).toBe('1 2 3 4 … 10');
    expect(render(pageSlots(8, 10))).toBe('1 … 7 8 9 10');
  });

  it('puts an ellipsis even for a single hidden page', () => {
    expect(render(pageSlots(4, 10))).toBe('1 … 3 4 5 … 10');
    expect(render(pageSlots(1, 4))).toBe('1 2 … 4');
  });

  it('clamps a current page outside the range', () => {
    expect(render(pageSlots(0, 5))).toBe('1 2 … 5');
    expect(render(pageSlots(99, 5))).toBe('1 … 4 5');
    expect(render(pageSlots(1, 0))).toBe('1');
  });

  it('gives gaps distinct keys', () => {
    const keys = pageSlots(5, 10)
      .filter((slot) => slot.kind === 'gap')
      .map((slot) => (slot.kind === 'gap' ? slot.key : ''));
    expect(new Set(keys).size).toBe(2);
  });
});
