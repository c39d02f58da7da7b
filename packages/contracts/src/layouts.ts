/**
 * The Template Studio layouts (staff spec, section 3 "Entities" and the constants): where the
 * photos go on the print canvas. Shared by the booth agent (composition), the server (demo
 * templates) and the web app (Template Studio); zod-free, exported through `./rules`.
 */

export type LayoutOrientation = 'landscape' | 'portrait';

/** One photo slot on the print canvas, in canvas pixels, as a template image slot. */
export interface LayoutSlot {
  x: number;
  y: number;
  w: number;
  h: number;
  /** "none" in a layout; a template may name any filter per slot. */
  filter: string;
}

export interface CanvasSize {
  width: number;
  height: number;
}

/** Print canvas by orientation: 6×4 in at 600 dpi (staff spec, section 9). */
export function canvasSize(orientation: LayoutOrientation): CanvasSize {
  return orientation === 'landscape'
    ? { width: 3600, height: 2400 }
    : { width: 2400, height: 3600 };
}

/** Corner radius of the photo openings the Template Studio cuts into a design (spec constants). */
export const TEMPLATE_STUDIO_CORNER_RADIUS = 50;

export interface TemplateLayout {
  orientation: LayoutOrientation;
  canvas: CanvasSize;
  images: readonly Readonly<LayoutSlot>[];
}

const slot = (x: number, y: number, w: number, h: number): Readonly<LayoutSlot> =>
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
export const STRIP_WIDTH = 1200;
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
export const LAYOUT_NAMES = Object.freeze(Object.keys(LAYOUTS) as LayoutName[]);
