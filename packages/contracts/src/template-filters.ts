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

/** What the API says of a slot filter outside the list (issue 38, item 2). */
export const TEMPLATE_FILTER_MESSAGE = `Filter must be one of: ${TEMPLATE_FILTER_NAMES.join(', ')}.`;

/** Whether `name` is one of the filters, written as the editor writes it (lower case, no spaces). */
export function isTemplateFilterName(name: string): name is TemplateFilterName {
  return (TEMPLATE_FILTER_NAMES as readonly string[]).includes(name);
}

/** Slot coordinates are whole canvas pixels: the message of a field that is not (issue 38, item 2). */
export function wholePixelsMessage(field: string): string {
  return `${field} must be a whole number of pixels.`;
}

/** Print preview (template detail): at most this many slots, each within this many pixels. */
export const TEMPLATE_PREVIEW_MAX_SLOTS = 24;
/** Twice the longest canvas side: enough to run a slot off any edge, small enough to render. */
export const TEMPLATE_PREVIEW_MAX_COORDINATE = 7200;

export const TEMPLATE_PREVIEW_MESSAGES = {
  failed: 'Could not make the print preview. Please try again.',
  busy: 'Too many print previews at once. Please try again in a moment.',
  tooManySlots: `A print preview takes at most ${TEMPLATE_PREVIEW_MAX_SLOTS} image slots.`,
} as const;
