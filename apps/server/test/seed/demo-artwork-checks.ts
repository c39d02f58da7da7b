import { TEMPLATE_STUDIO_CORNER_RADIUS, type LayoutSlot } from '@flashbooth/contracts/rules';
import sharp from 'sharp';

/**
 * Signed distance from a pixel centre to a slot's rounded outline: negative inside the opening,
 * positive outside (the usual rounded-box distance function).
 */
function distanceToOpening(px: number, py: number, slot: LayoutSlot, radius: number): number {
  const halfW = slot.w / 2;
  const halfH = slot.h / 2;
  const qx = Math.abs(px - (slot.x + halfW)) - (halfW - radius);
  const qy = Math.abs(py - (slot.y + halfH)) - (halfH - radius);
  const ox = Math.max(qx, 0);
  const oy = Math.max(qy, 0);
  const outside = Math.sqrt(ox * ox + oy * oy);
  return outside + Math.min(Math.max(qx, qy), 0) - radius;
}

export interface OpeningReport {
  width: number;
  height: number;
  channels: number;
  /** Pixels well inside an opening that are not fully transparent. */
  opaqueInOpenings: number;
  /** Pixels well outside every opening (the frame) that are not fully opaque. */
  clearInFrame: number;
  firstProblem: string | null;
}

/**
 * Checks a foreground PNG pixel by pixel: alpha 0 in every photo opening (rounded with the
 * Template Studio's corner radius) and alpha 255 everywhere else, leaving `edge` pixels either
 * side of each outline for anti-aliasing.
 */
export async function checkOpenings(
  png: Buffer,
  slots: readonly LayoutSlot[],
  edge = 1.5,
): Promise<OpeningReport> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const report: OpeningReport = {
    width: info.width,
    height: info.height,
    channels: info.channels,
    opaqueInOpenings: 0,
    clearInFrame: 0,
    firstProblem: null,
  };
  if (info.channels !== 4) {
    report.firstProblem = `${info.channels} channels, no alpha`;
    return report;
  }
  for (let y = 0; y < info.height; y += 1) {
    for (let x = 0; x < info.width; x += 1) {
      const alpha = data[(y * info.width + x) * 4 + 3]!;
      // Only a slot whose box (plus the edge) holds the pixel can be nearer than the edge.
      let nearest = Infinity;
      for (const slot of slots) {
        if (x + 1 < slot.x - edge || x > slot.x + slot.w + edge) continue;
        if (y + 1 < slot.y - edge || y > slot.y + slot.h + edge) continue;
        nearest = Math.min(
          nearest,
          distanceToOpening(x + 0.5, y + 0.5, slot, TEMPLATE_STUDIO_CORNER_RADIUS),
        );
      }
      if (nearest < -edge && alpha !== 0) {
        report.opaqueInOpenings += 1;
        report.firstProblem ??= `alpha ${alpha} at (${x}, ${y}) inside an opening`;
      } else if (nearest > edge && alpha !== 255) {
        report.clearInFrame += 1;
        report.firstProblem ??= `alpha ${alpha} at (${x}, ${y}) in the frame`;
      }
    }
  }
  return report;
}
