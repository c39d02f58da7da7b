/** One slot in a pager: a page number, or a gap shown as an ellipsis. */
export type PageSlot = { kind: 'page'; page: number } | { kind: 'gap'; key: string };

/** How many pages `totalCount` items make at `pageSize` a page (at least 1). */
export function pageCount(totalCount: number, pageSize: number): number {
  if (!Number.isFinite(totalCount) || totalCount <= 0 || pageSize <= 0) return 1;
  return Math.ceil(totalCount / pageSize);
}

/**
 * Spec (section 9): the pager shows the first page, the last page and the neighbours within 1 of
 * the current page, with an ellipsis for each run of hidden pages. Pages are 1-based; a current
 * page outside 1..total is clamped.
 */
export function pageSlots(current: number, total: number): PageSlot[] {
  const last = Math.max(1, Math.floor(total));
  const here = Math.min(Math.max(1, Math.floor(current)), last);
  const shown = new Set([1, last, here - 1, here, here + 1].filter((p) => p >= 1 && p <= last));
  const pages = [...shown].sort((a, b) => a - b);
  const slots: PageSlot[] = [];
  pages.forEach((page, index) => {
    const previous = pages[index - 1];
    if (previous !== undefined && page - previous > 1) {
      slots.push({ kind: 'gap', key: `gap-${previous}-${page}` });
    }
    slots.push({ kind: 'page', page });
  });
  return slots;
}
