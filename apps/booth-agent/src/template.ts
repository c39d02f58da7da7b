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

export interface CanvasSize {
  width: number;
  height: number;
}

/** Print canvas by orientation: 6×4 in at 600 dpi (staff spec, section 9). */
export function canvasSize(orientation: Orientation): CanvasSize {
  return orientation === 'landscape'
    ? { width: 3600, height: 2400 }
    : { width: 2400, height: 3600 };
}

export interface TemplateLayout {
  orientation: Orientation;
  canvas: CanvasSize;
  images: readonly Readonly<ImageSlot>[];
}

const slot = (x: number, y: number, w: number, h: number): Readonly<ImageSlot> =>
  Object.freeze({ x, y, w, h, filter: 'none' });

/**
 * Three 1620×1080 photos in a 2×2 grid (120 px margins and gutters, 80 px top and bottom);
 * the bottom-right cell is left free for the organization's branding in the foreground.
 */
const landscape3: TemplateLayout = Object.freeze({
  orientation: 'landscape',
  canvas: canvasSize('landscape'),
  images: Object.freeze([
    slot(120, 80, 1620, 1080),
    slot(1860, 80, 1620, 1080),
    slot(120, 1240, 1620, 1080),
  ]),
});

/** One 2880×1920 photo centred horizontally, with a 360 px band at the bottom for branding. */
const landscape1: TemplateLayout = Object.freeze({
  orientation: 'landscape',
  canvas: canvasSize('landscape'),
  images: Object.freeze([slot(360, 120, 2880, 1920)]),
});

/**
 * Two 1200 px strips side by side, three 1080×720 photos each. The left strip uses the
 * spec's default slot positions (x 61; y 555, 1440, 2325), the right strip is the same shifted
 * by 1200, so the cut down the middle yields two identical-width strips with room for branding
 * above and below the photos. Slot order is left strip top to bottom, then right strip: the
 * second half of the list is the second strip, which is what `is_duplicated` relies on.
 */
const STRIP_WIDTH = 1200;
const STRIP_YS = [555, 1440, 2325] as const;
const portrait6: TemplateLayout = Object.freeze({
  orientation: 'portrait',
  canvas: canvasSize('portrait'),
  images: Object.freeze(
    [0, 1].flatMap((strip) => STRIP_YS.map((y) => slot(61 + strip * STRIP_WIDTH, y, 1080, 720))),
  ),
});

/** The three Template Studio layouts (staff spec, section 3). */
export const LAYOUTS = Object.freeze({ landscape3, landscape1, portrait6 });
export type LayoutName = keyof typeof LAYOUTS;

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
