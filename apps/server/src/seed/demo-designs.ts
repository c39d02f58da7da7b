import {
  LAYOUTS,
  STRIP_WIDTH,
  TEMPLATE_STUDIO_CORNER_RADIUS,
  type LayoutName,
  type LayoutSlot,
  type TemplateLayout,
} from '@flashbooth/contracts/rules';

/**
 * The artwork of the demo templates as SVG, one design per Template Studio layout, drawn on the
 * full print canvas (600 dpi) in canvas pixels as an opaque frame. The photo openings are
 * punched out afterwards (`openingSvg`): an SVG mask over the whole canvas costs librsvg
 * several times the drawing itself.
 */

/** What a design prints besides its ornaments. */
export interface ArtworkText {
  /** The venue (organization) name, e.g. "Flashbooth Demo Café". */
  venue: string;
  /** A short place line, e.g. "Church Street · Bengaluru". */
  place: string;
  /** The date line as printed, e.g. "14 May 2025". */
  date: string;
  /** The same, short, for narrow strips: "14 May 2025" or "21 Nov 2026". */
  shortDate: string;
}

export type DesignName = 'cafe-classic' | 'golden-hour' | 'party-strip';

export const SERIF = "Georgia, 'DejaVu Serif', serif";
export const SANS = "'Helvetica Neue', Arial, 'DejaVu Sans', sans-serif";

export function escapeXml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!,
  );
}

/** "Flashbooth Demo Café" → kicker "Flashbooth", name "Demo Café" (one word: no kicker). */
export function splitVenue(venue: string): { kicker: string; name: string } {
  const words = venue.trim().split(/\s+/);
  return words.length > 1
    ? { kicker: words[0]!, name: words.slice(1).join(' ') }
    : { kicker: '', name: venue.trim() };
}

/** A small deterministic generator (mulberry32): the same confetti and sparkles on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const round = (value: number) => Math.round(value * 10) / 10;

/**
 * The font size, at most `size`, at which `text` fits `maxWidth`: estimated at `em` font sizes
 * per character plus the letter spacing (DejaVu Sans and Serif measure 0.53–0.68), so a longer
 * venue name or month shrinks instead of running off its panel.
 */
export function fitSize(text: string, size: number, maxWidth: number, em = 0.68, spacing = 0) {
  const perCharacter = (maxWidth / Math.max(text.length, 1) - spacing) / em;
  return Math.max(1, Math.floor(Math.min(size, perCharacter)));
}

function insideAny(x: number, y: number, slots: readonly LayoutSlot[], pad: number): boolean {
  return slots.some(
    (s) => x > s.x - pad && x < s.x + s.w + pad && y > s.y - pad && y < s.y + s.h + pad,
  );
}

function document(layout: TemplateLayout, defs: string, body: string): string {
  const { width, height } = layout.canvas;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs>${defs}</defs>
  ${body}
</svg>`;
}

/**
 * One photo opening as an SVG of the slot's size: the rounded rectangle the Template Studio
 * cuts (corner radius 50), to be punched out of the rendered design.
 */
export function openingSvg(slot: Pick<LayoutSlot, 'w' | 'h'>): string {
  const r = TEMPLATE_STUDIO_CORNER_RADIUS;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${slot.w}" height="${slot.h}">
  <rect width="${slot.w}" height="${slot.h}" rx="${r}" ry="${r}" fill="#000"/></svg>`;
}

/** A four-pointed sparkle of radius `r` centred on (x, y). */
function sparkle(x: number, y: number, r: number, fill: string, opacity = 1): string {
  const k = r * 0.16;
  return `<path transform="translate(${round(x)} ${round(y)})" fill="${fill}" fill-opacity="${opacity}"
    d="M0 ${-r} C${k} ${-k} ${k} ${-k} ${r} 0 C${k} ${k} ${k} ${k} 0 ${r} C${-k} ${k} ${-k} ${k} ${-r} 0 C${-k} ${-k} ${-k} ${-k} 0 ${-r}Z"/>`;
}

/** A small diamond (a square on its corner) centred on (x, y). */
const diamond = (x: number, y: number, r: number, fill: string) =>
  `<path d="M${x} ${y - r}L${x + r} ${y}L${x} ${y + r}L${x - r} ${y}Z" fill="${fill}"/>`;

/** A coffee bean of length 2r at (x, y), turned by `angle` degrees. */
function bean(x: number, y: number, r: number, angle: number, fill: string, crease: string) {
  return `<g transform="translate(${round(x)} ${round(y)}) rotate(${round(angle)})">
    <ellipse rx="${round(r * 0.68)}" ry="${r}" fill="${fill}"/>
    <path d="M0 ${round(-r * 0.82)} C${round(-r * 0.42)} ${round(-r * 0.3)} ${round(r * 0.42)} ${round(r * 0.3)} 0 ${round(r * 0.82)}"
      fill="none" stroke="${crease}" stroke-width="${round(r * 0.14)}" stroke-linecap="round"/></g>`;
}

/**
 * The café's logo mark: a steaming cup on a saucer in a double ring, about 200 units across
 * before `scale`.
 */
export function cafeMark(x: number, y: number, scale: number, ink: string, accent: string): string {
  return `<g transform="translate(${x} ${y}) scale(${scale})">
    <circle r="100" fill="none" stroke="${ink}" stroke-width="6"/>
    <circle r="86" fill="none" stroke="${accent}" stroke-width="3" stroke-dasharray="2 10" stroke-linecap="round"/>
    <path d="M-44 -6h74v18c0 32-17 48-37 48s-37-16-37-48z" fill="${ink}"/>
    <path d="M30 2c26-4 26 36 0 30" fill="none" stroke="${ink}" stroke-width="9"/>
    <path d="M-60 68h104" stroke="${ink}" stroke-width="8" stroke-linecap="round"/>
    <path d="M-24 -20c-9-10 9-16 0-28M-7 -20c-9-10 9-16 0-28M10 -20c-9-10 9-16 0-28"
      fill="none" stroke="${accent}" stroke-width="6" stroke-linecap="round"/>
  </g>`;
}

/** Flashbooth's own camera mark (the favicon's drawing), `size` pixels square at (x, y). */
function flashboothMark(x: number, y: number, size: number): string {
  return `<g transform="translate(${x} ${y}) scale(${round(size / 64)})">
    <rect width="64" height="64" rx="14" fill="#16121f"/>
    <circle cx="32" cy="34" r="14" fill="none" stroke="#ffb547" stroke-width="6"/>
    <rect x="20" y="12" width="24" height="8" rx="3" fill="#ff5a7a"/>
    <circle cx="32" cy="34" r="5" fill="#ff5a7a"/></g>`;
}

/** The booth maker's small credit: the mark and "flashbooth", side by side, centred on (cx, y). */
function credit(cx: number, y: number, size: number, fill: string, opacity = 0.85): string {
  const font = Math.round(size * 0.72);
  const textWidth = font * 5.6;
  const left = Math.round(cx - (size + font * 0.4 + textWidth) / 2);
  return `<g opacity="${opacity}">${flashboothMark(left, y - size / 2, size)}
    <text x="${round(left + size + font * 0.4)}" y="${round(y + font * 0.35)}" font-family="${SANS}"
      font-size="${font}" font-weight="bold" fill="${fill}">flashbooth</text></g>`;
}

/** The same credit stacked: the mark above "flashbooth", centred on (cx, y). */
function stackedCredit(cx: number, y: number, size: number, fill: string, opacity = 0.85) {
  const font = Math.round(size * 0.36);
  const top = Math.round(y - (size + font * 1.4) / 2);
  return `<g opacity="${opacity}">${flashboothMark(Math.round(cx - size / 2), top, size)}
    <text x="${cx}" y="${round(top + size + font * 1.25)}" text-anchor="middle" font-family="${SANS}"
      font-size="${font}" font-weight="bold" fill="${fill}">flashbooth</text></g>`;
}

// ---------------------------------------------------------------------------------------------
// Café Classic (landscape3): cream paper, espresso ink, copper accents; the free fourth cell is
// an espresso card carrying the café's mark, name, date and place.

function cafeClassic(layout: TemplateLayout, text: ArtworkText): string {
  const paper = '#f6eee2';
  const espresso = '#3e2a20';
  const copper = '#b0693c';
  const latte = '#dcc19c';
  const { width, height } = layout.canvas;
  const [topLeft, topRight, bottomLeft] = layout.images;
  // The branding card takes the free cell of the 2×2 grid, the size of a photo.
  const card = {
    x: topRight!.x,
    y: bottomLeft!.y,
    w: topRight!.w,
    h: bottomLeft!.h,
  };
  const cx = card.x + card.w / 2;
  const r = TEMPLATE_STUDIO_CORNER_RADIUS;
  const { kicker, name } = splitVenue(text.venue);

  const beans = [
    [card.x + 90, card.y + 100, 34, -30],
    [card.x + 160, card.y + 70, 24, 40],
    [card.x + 70, card.y + 190, 22, 10],
    [card.x + card.w - 90, card.y + card.h - 100, 34, 150],
    [card.x + card.w - 165, card.y + card.h - 70, 24, 60],
    [card.x + card.w - 70, card.y + card.h - 195, 22, -20],
  ]
    .map(([x, y, size, angle]) => bean(x!, y!, size!, angle!, copper, espresso))
    .join('');

  // Small diamonds where the gutters meet the border, and at the corners.
  const gutterX = (topLeft!.x + topLeft!.w + topRight!.x) / 2;
  const gutterY = (topLeft!.y + topLeft!.h + bottomLeft!.y) / 2;
  const ornaments = [
    diamond(gutterX, 26, 14, copper),
    diamond(gutterX, height - 26, 14, copper),
    diamond(26, gutterY, 14, copper),
    diamond(width - 26, gutterY, 14, copper),
    diamond(gutterX, gutterY, 22, copper),
    ...[
      [26, 26],
      [width - 26, 26],
      [26, height - 26],
      [width - 26, height - 26],
    ].map(([x, y]) => diamond(x!, y!, 18, espresso)),
  ].join('');

  const defs = `
    <radialGradient id="vignette" cx="50%" cy="50%" r="72%">
      <stop offset="0.55" stop-color="#e3cfb1" stop-opacity="0"/>
      <stop offset="1" stop-color="#d2b58d" stop-opacity="0.7"/>
    </radialGradient>
    <radialGradient id="card" cx="50%" cy="38%" r="75%">
      <stop offset="0" stop-color="#53392b"/>
      <stop offset="1" stop-color="${espresso}"/>
    </radialGradient>`;

  const body = `
    <rect width="${width}" height="${height}" fill="${paper}"/>
    <rect width="${width}" height="${height}" fill="url(#vignette)"/>
    <rect x="22" y="22" width="${width - 44}" height="${height - 44}" fill="none" stroke="${espresso}" stroke-width="6"/>
    <rect x="40" y="40" width="${width - 80}" height="${height - 80}" fill="none" stroke="${copper}" stroke-width="2.5"/>
    ${ornaments}
    ${layout.images
      .map(
        (s) =>
          `<rect x="${s.x - 12}" y="${s.y - 12}" width="${s.w + 24}" height="${s.h + 24}" rx="${r + 12}" fill="none" stroke="${latte}" stroke-width="4"/>`,
      )
      .join('')}
    <rect x="${card.x}" y="${card.y}" width="${card.w}" height="${card.h}" rx="${r}" fill="url(#card)"/>
    <rect x="${card.x + 28}" y="${card.y + 28}" width="${card.w - 56}" height="${card.h - 56}" rx="${r - 20}"
      fill="none" stroke="${latte}" stroke-width="3" stroke-opacity="0.6"/>
    <g opacity="0.45">${beans}</g>
    ${cafeMark(cx, card.y + 230, 1.25, paper, copper)}
    <text x="${cx}" y="${card.y + 470}" text-anchor="middle" font-family="${SANS}"
      font-size="${fitSize(kicker, 60, card.w - 200, 0.72, 26)}" letter-spacing="26" fill="${latte}">${escapeXml(kicker.toUpperCase())}</text>
    <text x="${cx}" y="${card.y + 680}" text-anchor="middle" font-family="${SERIF}" font-style="italic"
      font-size="${fitSize(name, 220, card.w - 200, 0.64)}" fill="${paper}">${escapeXml(name)}</text>
    <path d="M${cx - 330} ${card.y + 760}H${cx - 50}M${cx + 50} ${card.y + 760}H${cx + 330}"
      stroke="${copper}" stroke-width="5"/>
    ${diamond(cx, card.y + 760, 18, copper)}
    <text x="${cx}" y="${card.y + 870}" text-anchor="middle" font-family="${SANS}"
      font-size="${fitSize(text.date, 64, card.w - 200, 0.68, 14)}" letter-spacing="14"
      fill="${paper}">${escapeXml(text.date.toUpperCase())}</text>
    <text x="${cx}" y="${card.y + 960}" text-anchor="middle" font-family="${SERIF}" font-style="italic"
      font-size="${fitSize(text.place, 54, card.w - 200, 0.6)}" fill="${latte}">${escapeXml(text.place)}</text>`;
  return document(layout, defs, body);
}

// ---------------------------------------------------------------------------------------------
// Golden Hour (landscape1): a dusk-to-sunset frame with sun rays and gold foil lines around one
// large photo; the bottom band carries the venue name in gold.

function goldenHour(layout: TemplateLayout, text: ArtworkText): string {
  const { width, height } = layout.canvas;
  const photo = layout.images[0]!;
  const band = { top: photo.y + photo.h, bottom: height };
  const bandMid = (band.top + band.bottom) / 2;
  const cx = width / 2;
  const gold = '#f2c879';
  const cream = '#fff3df';
  const r = TEMPLATE_STUDIO_CORNER_RADIUS;

  // Rays fan out from below the band's centre; only the frame shows them.
  const rays = Array.from({ length: 36 }, (_, i) => {
    const from = (-180 + i * 5 - 1.1) * (Math.PI / 180);
    const to = (-180 + i * 5 + 1.1) * (Math.PI / 180);
    const ox = cx;
    const oy = height + 400;
    const far = 4600;
    return `M${ox} ${oy}L${round(ox + far * Math.cos(from))} ${round(oy + far * Math.sin(from))}L${round(ox + far * Math.cos(to))} ${round(oy + far * Math.sin(to))}Z`;
  }).join('');

  const next = random(7);
  const sparkles: string[] = [];
  for (let i = 0; i < 400 && sparkles.length < 26; i += 1) {
    const x = 40 + next() * (width - 80);
    const y = 40 + next() * (band.top - 40);
    if (insideAny(x, y, layout.images, 70)) continue;
    const size = 14 + next() * 30;
    sparkles.push(sparkle(x, y, size, gold, 0.55 + next() * 0.45));
  }

  const defs = `
    <linearGradient id="dusk" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#1d1838"/>
      <stop offset="0.5" stop-color="#4a2348"/>
      <stop offset="0.85" stop-color="#8c3a3f"/>
      <stop offset="1" stop-color="#b5563a"/>
    </linearGradient>
    <radialGradient id="sun" cx="${cx}" cy="${height + 160}" r="1500" gradientUnits="userSpaceOnUse">
      <stop offset="0" stop-color="#f7a352" stop-opacity="0.85"/>
      <stop offset="0.35" stop-color="#e9843f" stop-opacity="0.5"/>
      <stop offset="1" stop-color="#f59a4a" stop-opacity="0"/>
    </radialGradient>
    <linearGradient id="foil" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#fff0c4"/>
      <stop offset="0.45" stop-color="${gold}"/>
      <stop offset="1" stop-color="#d69a3e"/>
    </linearGradient>
    <linearGradient id="lettering" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#fff8e6"/>
      <stop offset="1" stop-color="#ffdc95"/>
    </linearGradient>`;

  const lineY = bandMid - 40;
  // Between the two sparkles that end the gold lines.
  const venueSize = fitSize(text.venue, 150, photo.w - 2 * 560, 0.6);
  const dateLine = `${text.date}  ·  ${text.place}`.toUpperCase();
  const body = `
    <rect width="${width}" height="${height}" fill="url(#dusk)"/>
    <rect width="${width}" height="${height}" fill="url(#sun)"/>
    <path d="${rays}" fill="#ffd58a" fill-opacity="0.055"/>
    ${sparkles.join('')}
    <rect x="${photo.x - 22}" y="${photo.y - 22}" width="${photo.w + 44}" height="${photo.h + 44}" rx="${r + 22}"
      fill="none" stroke="url(#foil)" stroke-width="8"/>
    <rect x="${photo.x - 46}" y="${photo.y - 46}" width="${photo.w + 92}" height="${photo.h + 92}" rx="${r + 46}"
      fill="none" stroke="${gold}" stroke-width="2.5" stroke-opacity="0.7"/>
    <text x="${cx}" y="${bandMid + 20}" text-anchor="middle" font-family="${SERIF}" font-size="${venueSize}"
      fill="#3a1228" fill-opacity="0.5" transform="translate(5 7)">${escapeXml(text.venue)}</text>
    <text x="${cx}" y="${bandMid + 20}" text-anchor="middle" font-family="${SERIF}" font-size="${venueSize}"
      fill="url(#lettering)">${escapeXml(text.venue)}</text>
    <text x="${cx}" y="${bandMid + 120}" text-anchor="middle" font-family="${SANS}"
      font-size="${fitSize(dateLine, 54, photo.w - 400, 0.68, 18)}" letter-spacing="18" fill="${cream}"
      fill-opacity="0.9">${escapeXml(dateLine)}</text>
    <path d="M${photo.x} ${lineY}H${photo.x + 420}M${photo.x + photo.w - 420} ${lineY}H${photo.x + photo.w}"
      stroke="${gold}" stroke-width="4"/>
    ${sparkle(photo.x + 470, lineY, 34, gold)}
    ${sparkle(photo.x + photo.w - 470, lineY, 34, gold)}
    ${cafeMark(photo.x / 2, bandMid, 0.95, gold, cream)}
    ${stackedCredit(width - photo.x / 2, bandMid, 120, cream, 0.85)}`;
  return document(layout, defs, body);
}

// ---------------------------------------------------------------------------------------------
// Party Strip (portrait6): two identical strips (cut and duplicated) on deep violet with neon
// blobs, confetti and white photo borders; name on top, date below.

function partyStrip(layout: TemplateLayout, text: ArtworkText): string {
  const { width, height } = layout.canvas;
  const stripSlots = layout.images.slice(0, layout.images.length / 2);
  const first = stripSlots[0]!;
  const last = stripSlots[stripSlots.length - 1]!;
  const cx = STRIP_WIDTH / 2;
  const pink = '#ff4f9a';
  const cyan = '#4fe3ee';
  const yellow = '#ffd23f';
  const white = '#ffffff';
  const r = TEMPLATE_STUDIO_CORNER_RADIUS;
  const { kicker, name } = splitVenue(text.venue);

  const footerTop = last.y + last.h;
  const colours = [pink, cyan, yellow, white, '#9b7bff'];
  const next = random(42);
  const confetti: string[] = [];
  for (let i = 0; i < 2000 && confetti.length < 90; i += 1) {
    const x = 20 + next() * (STRIP_WIDTH - 40);
    const y = 20 + next() * (height - 40);
    if (insideAny(x, y, stripSlots, 40)) continue;
    // Keep the lettering readable: little confetti right behind the texts.
    if (
      Math.abs(x - cx) < 520 &&
      ((y > 80 && y < 530) || (y > footerTop + 70 && y < height - 40))
    ) {
      continue;
    }
    const fill = colours[Math.floor(next() * colours.length)]!;
    const angle = Math.round(next() * 180);
    const kind = next();
    const size = 10 + next() * 16;
    if (kind < 0.4) {
      confetti.push(
        `<rect x="${round(-size)}" y="${round(-size / 2.6)}" width="${round(size * 2)}" height="${round(size / 1.3)}" rx="3" fill="${fill}" transform="translate(${round(x)} ${round(y)}) rotate(${angle})"/>`,
      );
    } else if (kind < 0.75) {
      confetti.push(
        `<circle cx="${round(x)}" cy="${round(y)}" r="${round(size / 1.6)}" fill="${fill}"/>`,
      );
    } else {
      confetti.push(sparkle(x, y, size * 1.4, fill));
    }
  }

  const borders = stripSlots
    .map(
      (s) =>
        `<rect x="${s.x - 9}" y="${s.y - 9}" width="${s.w + 18}" height="${s.h + 18}" rx="${r + 9}" fill="${white}"/>`,
    )
    .join('');

  const zigzag = Array.from(
    { length: 13 },
    (_, i) => `${cx - 300 + i * 50} ${i % 2 ? 455 : 485}`,
  ).join('L');

  const inner = STRIP_WIDTH - 140;
  const nameSize = fitSize(name, 160, inner, 0.62);
  const date = text.shortDate.toUpperCase();
  const place = text.place.toUpperCase();
  const strip = `
    <rect width="${STRIP_WIDTH}" height="${height}" fill="url(#night)"/>
    <rect width="${STRIP_WIDTH}" height="${height}" fill="url(#glowPink)"/>
    <rect width="${STRIP_WIDTH}" height="${height}" fill="url(#glowCyan)"/>
    ${confetti.join('')}
    ${borders}
    <text x="${cx}" y="150" text-anchor="middle" font-family="${SANS}" font-weight="bold"
      font-size="${fitSize(kicker, 56, inner, 0.72, 30)}" letter-spacing="30" fill="${cyan}">${escapeXml(kicker.toUpperCase())}</text>
    <text x="${cx + 10}" y="${first.y - 195}" text-anchor="middle" font-family="${SANS}" font-weight="bold"
      font-size="${nameSize}" fill="${pink}">${escapeXml(name)}</text>
    <text x="${cx}" y="${first.y - 205}" text-anchor="middle" font-family="${SANS}" font-weight="bold"
      font-size="${nameSize}" fill="${white}">${escapeXml(name)}</text>
    <path d="M${zigzag}" fill="none" stroke="${yellow}" stroke-width="12" stroke-linejoin="round" stroke-linecap="round"/>
    <text x="${cx}" y="${footerTop + 200}" text-anchor="middle" font-family="${SANS}" font-weight="bold"
      font-size="${fitSize(date, 112, inner, 0.66, 6)}" letter-spacing="6" fill="${yellow}">${escapeXml(date)}</text>
    <text x="${cx}" y="${footerTop + 290}" text-anchor="middle" font-family="${SANS}"
      font-size="${fitSize(place, 50, inner, 0.66, 8)}" letter-spacing="8" fill="${white}"
      fill-opacity="0.85">${escapeXml(place)}</text>
    ${cafeMark(cx - 230, footerTop + 440, 0.62, white, pink)}
    ${credit(cx + 90, footerTop + 440, 60, white, 0.85)}`;

  const defs = `
    <linearGradient id="night" x1="0" y1="0" x2="0.3" y2="1">
      <stop offset="0" stop-color="#2d0f52"/>
      <stop offset="0.5" stop-color="#1f0b3d"/>
      <stop offset="1" stop-color="#35104f"/>
    </linearGradient>
    <radialGradient id="glowPink" cx="${STRIP_WIDTH}" cy="300" r="900" gradientUnits="userSpaceOnUse">
      <stop offset="0" stop-color="${pink}" stop-opacity="0.45"/>
      <stop offset="1" stop-color="${pink}" stop-opacity="0"/>
    </radialGradient>
    <radialGradient id="glowCyan" cx="0" cy="${height - 250}" r="900" gradientUnits="userSpaceOnUse">
      <stop offset="0" stop-color="${cyan}" stop-opacity="0.35"/>
      <stop offset="1" stop-color="${cyan}" stop-opacity="0"/>
    </radialGradient>
    <clipPath id="strip"><rect width="${STRIP_WIDTH}" height="${height}"/></clipPath>
    <g id="one-strip" clip-path="url(#strip)">${strip}</g>`;

  // Both strips are the same drawing, so the two halves of the cut print match.
  const body = Array.from(
    { length: width / STRIP_WIDTH },
    (_, i) => `<use href="#one-strip" x="${i * STRIP_WIDTH}" y="0"/>`,
  ).join('');
  return document(layout, defs, body);
}

const DESIGNS: Record<DesignName, { layout: LayoutName; draw: typeof cafeClassic }> = {
  'cafe-classic': { layout: 'landscape3', draw: cafeClassic },
  'golden-hour': { layout: 'landscape1', draw: goldenHour },
  'party-strip': { layout: 'portrait6', draw: partyStrip },
};

/** The layout a design is drawn for. */
export function designLayout(design: DesignName): LayoutName {
  return DESIGNS[design].layout;
}

/** The design's SVG on its layout's canvas, openings not yet cut. */
export function designSvg(design: DesignName, text: ArtworkText): string {
  const { layout, draw } = DESIGNS[design];
  return draw(LAYOUTS[layout], text);
}
