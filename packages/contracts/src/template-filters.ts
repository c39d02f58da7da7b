/**
 * The photo filters a booth really applies (packages/print-composition's `filters.ts` implements
 * each one; the template editor offers exactly these). zod-free, exported through `./rules`.
 */
export const TEMPLATE_FILTER_NAMES = [
  'none',
  'grayscale',
  'sepia',
  'warm',
  'cool',
  'vintage',
  'high-contrast',
] as const;
export type TemplateFilterName = (typeof TEMPLATE_FILTER_NAMES)[number];

/** Print preview (template detail): at most this many slots, each within this many pixels. */
export const TEMPLATE_PREVIEW_MAX_SLOTS = 24;
/** Twice the longest canvas side: enough to run a slot off any edge, small enough to render. */
export const TEMPLATE_PREVIEW_MAX_COORDINATE = 7200;

export const TEMPLATE_PREVIEW_MESSAGES = {
  failed: 'Could not make the print preview. Please try again.',
  busy: 'Too many print previews at once. Please try again in a moment.',
  tooManySlots: `A print preview takes at most ${TEMPLATE_PREVIEW_MAX_SLOTS} image slots.`,
} as const;
