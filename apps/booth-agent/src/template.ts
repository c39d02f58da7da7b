/**
 * The template as the booth agent receives it with a capture command (DESIGN 2b): the staff
 * console's Template entity (staff spec, section 3) with the foreground already fetched.
 * Plain types on purpose: the MQTT link validates the message against the shared contract and
 * hands this module a checked object.
 */

export type Orientation = 'landscape' | 'portrait';

/** One photo slot on the print canvas, in canvas pixels. */
export interface ImageSlot {
  x: number;
  y: number;
  w: number;
  h: number;
  /** Free text on the server ("none" by default); see `knownFilter` for the names the booth applies. */
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
 * Template Studio and the server's demo templates use them too); re-exported for the agent.
 */
export {
  canvasSize,
  LAYOUTS,
  type CanvasSize,
  type LayoutName,
  type TemplateLayout,
} from '@flashbooth/contracts/rules';

/**
 * Number of photos the booth takes (DESIGN 2b): one per image slot, or only the first half's
 * when `is_duplicated` repeats one strip. An odd slot count rounds up so every slot has a photo.
 */
export function totalCaptures(template: Pick<Template, 'images' | 'is_duplicated'>): number {
  const slots = template.images.length;
  return template.is_duplicated ? Math.ceil(slots / 2) : slots;
}

/** Which photo fills slot `slotIndex`: with `is_duplicated`, the second half reuses the first half's. */
export function photoIndexForSlot(
  template: Pick<Template, 'images' | 'is_duplicated'>,
  slotIndex: number,
): number {
  const captures = totalCaptures(template);
  return captures === 0 ? 0 : slotIndex % captures;
}

/** How the printer finishes the print: `is_cut` makes two strips, otherwise one large print. */
export function printLayout(template: Pick<Template, 'is_cut'>): { strips: 1 | 2 } {
  return { strips: template.is_cut ? 2 : 1 };
}
