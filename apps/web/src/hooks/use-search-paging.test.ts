import { describe, expect, it } from 'vitest';
import { pagedView } from './use-search-paging';

describe('pagedView', () => {
  it('shows the page and counts pages as the ceiling of total over page size', () => {
    expect(pagedView({ data: { items: [1, 2], total_count: 21 }, isError: false }, 10)).toEqual({
      items: [1, 2],
      totalPages: 3,
    });
    expect(
      pagedView({ data: { items: [1], total_count: 10 }, isError: false }, 10).totalPages,
    ).toBe(1);
  });

  it('is one empty page while nothing has loaded', () => {
    expect(pagedView({ isError: false }, 10)).toEqual({ items: [], totalPages: 1 });
  });

  it('empties the list when the load failed, even with an older page in the cache', () => {
    expect(pagedView({ data: { items: [1, 2], total_count: 40 }, isError: true }, 10)).toEqual({
      items: [],
      totalPages: 1,
    });
  });
});
