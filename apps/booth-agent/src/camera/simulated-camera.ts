import sharp from 'sharp';
import type { Camera } from './camera.js';

export interface SimulatedCameraOptions {
  /** Photo size; the default is the 3:2 slot size of the landscape3 layout. */
  width?: number;
  height?: number;
  /** Clock for the timestamp stamped on each photo (tests pin it). */
  now?: () => Date;
}

/** Drawn in a 1620×1080 frame and scaled, so every size looks alike. */
function photoSvg(index: number, width: number, height: number, taken: Date): string {
  // The golden angle spreads consecutive shots far apart on the colour wheel.
  const hue = Math.round((index * 137.508 + 200) % 360);
  const shot = String(index + 1);
  const stamp = taken.toISOString().replace('T', ' ').slice(0, 19);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"
  viewBox="0 0 1620 1080" preserveAspectRatio="xMidYMid slice">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue}, 75%, 62%)"/>
      <stop offset="1" stop-color="hsl(${(hue + 40) % 360}, 70%, 30%)"/>
    </linearGradient>
  </defs>
  <rect width="1620" height="1080" fill="url(#bg)"/>
  <g fill="hsl(${hue}, 30%, 18%)">
    <path d="M170 1080 C170 800 310 700 480 700 C650 700 790 800 790 1080 Z"/>
    <circle cx="480" cy="470" r="190"/>
  </g>
  <g fill="hsl(${hue}, 80%, 85%)">
    <circle cx="415" cy="430" r="24"/>
    <circle cx="545" cy="430" r="24"/>
  </g>
  <path d="M385 525 Q480 620 575 525" fill="none" stroke="hsl(${hue}, 80%, 85%)"
    stroke-width="22" stroke-linecap="round"/>
  <text x="1230" y="720" text-anchor="middle" font-family="DejaVu Sans, Liberation Sans, sans-serif"
    font-weight="bold" font-size="620" fill="#ffffff" fill-opacity="0.92">${shot}</text>
  <text x="60" y="90" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="44"
    fill="#ffffff">Flashbooth simulated camera</text>
  <text x="1560" y="1030" text-anchor="end" font-family="DejaVu Sans Mono, monospace"
    font-size="40" fill="#ffffff">${stamp} UTC</text>
</svg>`;
}

/**
 * The default camera of a booth without hardware (DESIGN 1): each shot is a distinct,
 * recognisable picture (its own colours, the shot number, a person's silhouette, the time),
 * so a print shows at a glance that every slot got the right photo.
 */
export class SimulatedCamera implements Camera {
  private readonly width: number;
  private readonly height: number;
  private readonly now: () => Date;

  constructor(options: SimulatedCameraOptions = {}) {
    this.width = options.width ?? 1620;
    this.height = options.height ?? 1080;
    this.now = options.now ?? (() => new Date());
  }

  async capture(index: number): Promise<Buffer> {
    const svg = photoSvg(index, this.width, this.height, this.now());
    return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
  }
}
