/**
 * The template as a print is composed from it: the staff console's Template entity (staff spec,
 * section 3) with the foreground already fetched, as the booth agent receives it with a capture
 * command (DESIGN 2b) and as the server's demo artwork builds it. Plain types on purpose: callers
 * validate against the shared contract and hand this module a checked object.
 */
import { captureCount } from '@flashbooth/contracts';

export type Orientation = 'landscape' | 'portrait';

/** One photo slot on the print canvas, in canvas pixels. */
export interface ImageSlot {
  x: number;
  y: number;
  w: number;
  h: number;
  /** Free text on the server ("none" by default); see `knownFilter` for the names that apply. */
  filter: string;
}

export interface Template {
  id: number;
  name: string;
  orientation: Orientation;
  /** The printer cuts the print into two strips. */
  is_cut: boolean;
  /** The second half of the slots repeats the first half's photos (two identical strips). */
  is_duplicated: boolean;
  images: ImageSlot[];
  /** PNG overlay (with alpha) drawn over the photos, canvas-sized; null when the template has none. */
  foreground: Buffer | null;
}

/**
 * The print canvas and the three Template Studio layouts live in the shared contracts (the web's
 * Template Studio uses them too); re-exported beside the code that composes on them.
 */
export {
  canvasSize,
  LAYOUTS,
  type CanvasSize,
  type LayoutName,
  type TemplateLayout,
} from '@flashbooth/contracts/rules';

/**
 * Which photo fills slot `slotIndex`: with `is_duplicated`, the second half reuses the first
 * half's. The photos taken are `captureCount(slots, is_duplicated)` (the shared rule).
 */
export function photoIndexForSlot(
  template: Pick<Template, 'images' | 'is_duplicated'>,
  slotIndex: number,
): number {
  const captures = captureCount(template.images.length, template.is_duplicated);
  return captures === 0 ? 0 : slotIndex % captures;
}

/** How the printer finishes the print: `is_cut` makes two strips, otherwise one large print. */
export function printLayout(template: Pick<Template, 'is_cut'>): { strips: 1 | 2 } {
  return { strips: template.is_cut ? 2 : 1 };
}
