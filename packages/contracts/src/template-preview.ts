import { z } from 'zod';
import { hasNoNul, nulMessage } from './common.js';
import {
  TEMPLATE_PREVIEW_MAX_COORDINATE as MAX,
  TEMPLATE_PREVIEW_MAX_SLOTS,
  TEMPLATE_PREVIEW_MESSAGES,
} from './template-filters.js';
import { TemplateOrientationSchema } from './templates.js';

const position = (field: string) =>
  z
    .number({ error: `${field} must be a number.` })
    .min(0, `${field} must be 0 or more.`)
    .max(MAX, `${field} must be at most ${MAX}.`);
const size = (field: string) =>
  z
    .number({ error: `${field} must be a number.` })
    .positive(`${field} must be more than 0.`)
    .max(MAX, `${field} must be at most ${MAX}.`);

/** One slot of the draft: as a template image slot, without id, bounded for rendering. */
export const TemplatePreviewSlotSchema = z
  .object({
    x: position('x'),
    y: position('y'),
    w: size('w'),
    h: size('h'),
    filter: z
      .string({ error: 'Filter must be text.' })
      .max(50, 'Filter must be at most 50 characters.')
      .refine(hasNoNul, nulMessage('Filter'))
      .default('none'),
  })
  .strict();
export type TemplatePreviewSlot = z.infer<typeof TemplatePreviewSlotSchema>;

/**
 * POST templates/{id}/preview: the edit panel's draft (the stored foreground is used). Answers
 * the print as the booth composes it, a JPEG of the orientation's canvas size.
 */
export const TemplatePreviewRequestSchema = z
  .object({
    orientation: TemplateOrientationSchema,
    is_cut: z.boolean({ error: 'is_cut must be true or false.' }).default(false),
    is_duplicated: z.boolean({ error: 'is_duplicated must be true or false.' }).default(false),
    images: z
      .array(TemplatePreviewSlotSchema, { error: 'images must be a list of slots.' })
      .max(TEMPLATE_PREVIEW_MAX_SLOTS, TEMPLATE_PREVIEW_MESSAGES.tooManySlots),
  })
  .strict();
export type TemplatePreviewRequest = z.infer<typeof TemplatePreviewRequestSchema>;
