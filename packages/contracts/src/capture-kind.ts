import { z } from 'zod';
import { CAPTURE_KINDS, TEMPLATE_MESSAGES } from './rules.js';

/**
 * What a template captures (photo, gif, boomerang, video). Its type is `CaptureKind` from
 * rules.ts, the same tuple without zod. Kept in its own module so templates, media and the
 * device command can all use it without importing one another.
 */
export const CaptureKindSchema = z.enum(CAPTURE_KINDS, { error: TEMPLATE_MESSAGES.captureKind });
