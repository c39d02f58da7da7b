import sharp from 'sharp';

export interface SamplePhotoOptions {
  /** Photo size; the default is the 3:2 slot size of the landscape3 layout. */
  width?: number;
  height?: number;
  /** The time stamped on the photo. */
  takenAt: Date;
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
 * Photo number `index` (0-based) of a simulated session as a JPEG: its own colours, the shot
 * number, a person's silhouette and the time, so a print shows at a glance that every slot got
 * the right photo. The booth agent's simulated camera takes these; the demo templates' samples
 * are composed from them.
 */
export function samplePhoto(index: number, options: SamplePhotoOptions): Promise<Buffer> {
  const svg = photoSvg(index, options.width ?? 1620, options.height ?? 1080, options.takenAt);
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}
