/**
 * The booth's QR poster (issue 11, "Beyond the spec"): paper sizes, the address the QR code
 * holds, the layout of the artwork, file names and the PNG's print resolution. Pure: the screen
 * draws what these functions describe.
 */
import { paths } from '@/config/paths';

export type PosterSize = 'a5' | 'a4';

export interface PaperSize {
  label: string;
  /** Portrait width and height in millimetres (ISO 216). */
  widthMm: number;
  heightMm: number;
}

export const POSTER_SIZES: Record<PosterSize, PaperSize> = {
  a5: { label: 'A5', widthMm: 148, heightMm: 210 },
  a4: { label: 'A4', widthMm: 210, heightMm: 297 },
};

export const POSTER_SIZE_ORDER: readonly PosterSize[] = ['a5', 'a4'];
export const DEFAULT_POSTER_SIZE: PosterSize = 'a4';

/** Print resolution of the PNG download. */
export const POSTER_PNG_DPI = 300;
const MM_PER_INCH = 25.4;

export const POSTER_TEXT = {
  title: 'QR Poster',
  instruction: 'Scan to take your photos',
  footer: 'Point your phone camera at the code. No app needed.',
  tagline: 'Instant photo prints',
  unlinked:
    'This booth is not linked to an organization, so it has no poster yet: visitors can open a booth only once it belongs to a venue. Link it to an organization first.',
  backToDevice: '← Back to Device',
  loadFailed: 'Failed to load device details.',
  pngFailed: 'Could not make the PNG. Please try again.',
  pngReady: 'PNG downloaded.',
  svgReady: 'SVG downloaded.',
} as const;

/** How long the screen's download messages stay (the staff screens' 5 s). */
export const POSTER_STATUS_MS = 5000;

/**
 * Where the booth's visitors go: `{PUBLIC_URL}/b/{deviceId}`. The configured public address when
 * the installation has one, else the address this console was opened at.
 */
export function boothPosterUrl(
  deviceId: number,
  publicUrl: string | undefined,
  origin: string,
): string {
  const base = (publicUrl?.trim() || origin).replace(/\/+$/, '');
  return `${base}${paths.regular.shortLink.getHref(deviceId)}`;
}

/** The address as printed under the code: without the scheme, which phones add themselves. */
export function printedUrl(url: string): string {
  return url.replace(/^https?:\/\//i, '');
}

/** Pixel size of the PNG: the paper at `dpi` dots per inch. */
export function posterPixelSize(size: PosterSize, dpi = POSTER_PNG_DPI) {
  const paper = POSTER_SIZES[size];
  return {
    width: Math.round((paper.widthMm / MM_PER_INCH) * dpi),
    height: Math.round((paper.heightMm / MM_PER_INCH) * dpi),
  };
}

/** A file-name-safe form of a name: lower case ASCII letters, digits and single dashes. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
}

/** `flashbooth-poster-<booth>-<id>-a4.png`: says what it is, which booth and which size. */
export function posterFileName(
  deviceName: string,
  deviceId: number,
  size: PosterSize,
  extension: 'png' | 'svg',
): string {
  const slug = slugify(deviceName);
  return `flashbooth-poster-${slug ? `${slug}-` : ''}${deviceId}-${size}.${extension}`;
}

// ---------------------------------------------------------------------------------------------
// Layout. The artwork is drawn in A4 millimetres and scaled to the paper: A5 is the same design
// at 148/210 (ISO 216 sizes share one shape), centred in the sheet's tiny remaining height.

/** The design's own units: A4 millimetres. */
export const DESIGN = { width: 210, height: 297, margin: 12 } as const;

export interface TextBlock {
  lines: string[];
  fontSize: number;
}

interface FitOptions {
  maxWidth: number;
  fontSize: number;
  minFontSize: number;
  maxLines: number;
  /** Average glyph width as a share of the font size (generous, so real fonts fit). */
  charWidth: number;
}

const ELLIPSIS = '…';

/** Splits words into lines of at most `maxChars` characters (a word longer than that is cut). */
function wrapWords(words: string[], maxChars: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const pieces =
      word.length > maxChars ? (word.match(new RegExp(`.{1,${maxChars}}`, 'gu')) ?? []) : [word];
    for (const piece of pieces) {
      if (!line) line = piece;
      else if (line.length + 1 + piece.length <= maxChars) line = `${line} ${piece}`;
      else {
        lines.push(line);
        line = piece;
      }
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * Fits text into at most `maxLines` lines of `maxWidth`: the largest font size (from `fontSize`
 * down to `minFontSize`) at which it wraps into the lines; failing that, the smallest size with
 * the last line cut and an ellipsis. Widths are estimated (`charWidth`), not measured, so the
 * same layout comes out in the browser, the SVG file and the PNG.
 */
export function fitText(text: string, options: FitOptions): TextBlock {
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return { lines: [], fontSize: options.fontSize };
  const maxCharsAt = (size: number) =>
    Math.max(1, Math.floor(options.maxWidth / (size * options.charWidth)));
  for (let size = options.fontSize; size >= options.minFontSize; size -= 0.5) {
    const lines = wrapWords(words, maxCharsAt(size));
    // A word cut in pieces fits only if it had to be: prefer a smaller size over a split word.
    const splitWord = words.some((word) => word.length > maxCharsAt(size));
    if (lines.length <= options.maxLines && !splitWord) return { lines, fontSize: size };
  }
  const size = options.minFontSize;
  const maxChars = maxCharsAt(size);
  const lines = wrapWords(words, maxChars);
  if (lines.length <= options.maxLines) return { lines, fontSize: size };
  const kept = lines.slice(0, options.maxLines);
  const last = kept[kept.length - 1]!;
  kept[kept.length - 1] = `${last.slice(0, Math.max(0, maxChars - 1)).trimEnd()}${ELLIPSIS}`;
  return { lines: kept, fontSize: size };
}

export interface PosterLayout {
  paper: PaperSize;
  /** Scale from design units (A4 mm) to the paper's millimetres. */
  scale: number;
  /** Vertical offset of the design on the paper, in paper millimetres. */
  offsetY: number;
  venue: TextBlock & { baselines: number[] };
  booth: TextBlock & { baselines: number[] };
  /** The code's square (design units), quiet zone included. */
  qr: { x: number; y: number; size: number };
  /** The white card around the code. */
  card: { x: number; y: number; size: number };
  instructionY: number;
  urlY: number;
  /** The printed address's size: smaller for a long public address, so it stays on the sheet. */
  urlFontSize: number;
  footerY: number;
}

const TITLE_TOP = 64;
const TITLE_BOTTOM = 110;
const CARD = { y: 116, size: 132 };
const QR_PADDING = 4;
const TEXT_WIDTH = DESIGN.width - 2 * DESIGN.margin - 16;

const URL_FONT_SIZE = 5.5;

/** Where everything goes on the poster of `size` for this venue, booth and printed address. */
export function posterLayout(
  size: PosterSize,
  venueName: string,
  boothName: string,
  address = '',
): PosterLayout {
  const paper = POSTER_SIZES[size];
  const scale = paper.widthMm / DESIGN.width;
  const offsetY = (paper.heightMm - DESIGN.height * scale) / 2;

  const venue = fitText(venueName, {
    maxWidth: TEXT_WIDTH,
    fontSize: 13,
    minFontSize: 8,
    maxLines: 2,
    charWidth: 0.62,
  });
  const booth = fitText(boothName, {
    maxWidth: TEXT_WIDTH,
    fontSize: 8,
    minFontSize: 6,
    maxLines: 1,
    charWidth: 0.58,
  });
  // The venue's lines and the booth's line, centred as a block between the header and the code.
  const venueStep = venue.fontSize * 1.15;
  const gap = booth.fontSize * 0.9;
  const height =
    venue.fontSize +
    venueStep * (venue.lines.length - 1) +
    (booth.lines.length ? gap + booth.fontSize : 0);
  const top = TITLE_TOP + (TITLE_BOTTOM - TITLE_TOP - height) / 2;
  const venueBaselines = venue.lines.map((_, index) => top + venue.fontSize + index * venueStep);
  const lastVenue = venueBaselines[venueBaselines.length - 1] ?? top;
  const boothBaselines = booth.lines.map(() => lastVenue + gap + booth.fontSize);

  const card = { x: (DESIGN.width - CARD.size) / 2, y: CARD.y, size: CARD.size };
  const qrSize = CARD.size - 2 * QR_PADDING;
  return {
    paper,
    scale,
    offsetY,
    venue: { ...venue, baselines: venueBaselines },
    booth: { ...booth, baselines: boothBaselines },
    card,
    qr: { x: card.x + QR_PADDING, y: card.y + QR_PADDING, size: qrSize },
    instructionY: card.y + card.size + 16,
    urlY: card.y + card.size + 25,
    urlFontSize: Math.min(URL_FONT_SIZE, TEXT_WIDTH / (Math.max(1, address.length) * 0.6)),
    footerY: DESIGN.height - DESIGN.margin - 2,
  };
}

/** The modules of a QR code: `size` × `size`, dark where `isDark(row, column)`. */
export interface QrMatrix {
  size: number;
  isDark: (row: number, column: number) => boolean;
}

/** Quiet zone around the code, in modules (the QR standard asks for 4). */
export const QR_QUIET_ZONE = 4;

/**
 * The dark modules as one SVG path in module units, quiet zone included (so the code starts at
 * QR_QUIET_ZONE): one rectangle per horizontal run, which keeps the file small and the edges crisp.
 */
export function qrPath(matrix: QrMatrix): string {
  const parts: string[] = [];
  for (let row = 0; row < matrix.size; row += 1) {
    let column = 0;
    while (column < matrix.size) {
      if (!matrix.isDark(row, column)) {
        column += 1;
        continue;
      }
      const start = column;
      while (column < matrix.size && matrix.isDark(row, column)) column += 1;
      parts.push(
        `M${start + QR_QUIET_ZONE} ${row + QR_QUIET_ZONE}h${column - start}v1h${start - column}z`,
      );
    }
  }
  return parts.join('');
}

// ---------------------------------------------------------------------------------------------
// PNG resolution. Canvas PNGs carry no resolution, so a print shop or an image viewer would take
// them for 72 dpi and print a wall-sized poster; a pHYs chunk says what size they are.

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const PNG_SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];
/** Signature (8) + IHDR (length 4, type 4, data 13, CRC 4): where the next chunk starts. */
const AFTER_IHDR = 33;

/**
 * The PNG with a pHYs chunk giving `dpi` (as pixels per metre) right after IHDR, replacing none:
 * canvas output has no pHYs of its own. Anything that is not a PNG is returned as it was.
 */
export function withPngResolution(
  png: Uint8Array<ArrayBuffer>,
  dpi = POSTER_PNG_DPI,
): Uint8Array<ArrayBuffer> {
  const isPng =
    png.length > AFTER_IHDR &&
    PNG_SIGNATURE.every((byte, index) => png[index] === byte) &&
    String.fromCharCode(...png.slice(12, 16)) === 'IHDR';
  if (!isPng) return png;
  const pixelsPerMetre = Math.round(dpi / 0.0254);
  const chunk = new Uint8Array(21);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, 9);
  chunk.set([0x70, 0x48, 0x59, 0x73], 4); // "pHYs"
  view.setUint32(8, pixelsPerMetre);
  view.setUint32(12, pixelsPerMetre);
  chunk[16] = 1; // unit: metre
  view.setUint32(17, crc32(chunk.subarray(4, 17)));
  const out = new Uint8Array(png.length + chunk.length);
  out.set(png.subarray(0, AFTER_IHDR), 0);
  out.set(chunk, AFTER_IHDR);
  out.set(png.subarray(AFTER_IHDR), AFTER_IHDR + chunk.length);
  return out;
}
