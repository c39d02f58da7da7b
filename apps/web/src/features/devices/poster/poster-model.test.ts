import { crc32 as zlibCrc32 } from 'node:zlib';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import {
  boothPosterUrl,
  crc32,
  DESIGN,
  fitText,
  posterFileName,
  posterLayout,
  posterPixelSize,
  POSTER_SIZES,
  printedUrl,
  qrPath,
  QR_QUIET_ZONE,
  slugify,
  withPngResolution,
} from './poster-model';

describe('boothPosterUrl', () => {
  it('uses the configured public address, without its trailing slashes', () => {
    expect(boothPosterUrl(7, 'https://booths.example.com//', 'http://localhost:8080')).toBe(
      'https://booths.example.com/b/7',
    );
  });

  it('falls back to the console’s own origin when no public address is configured', () => {
    expect(boothPosterUrl(12, undefined, 'http://localhost:8181')).toBe(
      'http://localhost:8181/b/12',
    );
    expect(boothPosterUrl(12, '  ', 'http://localhost:8181')).toBe('http://localhost:8181/b/12');
  });

  it('prints the address without its scheme', () => {
    expect(printedUrl('https://booths.example.com/b/7')).toBe('booths.example.com/b/7');
    expect(printedUrl('HTTP://localhost:8181/b/1')).toBe('localhost:8181/b/1');
  });
});

describe('sizes and files', () => {
  it('renders A5 and A4 at 300 dpi', () => {
    expect(posterPixelSize('a5')).toEqual({ width: 1748, height: 2480 });
    expect(posterPixelSize('a4')).toEqual({ width: 2480, height: 3508 });
    expect(posterPixelSize('a4', 150)).toEqual({ width: 1240, height: 1754 });
  });

  it('names files after the booth, its id and the size', () => {
    expect(posterFileName('Demo Booth', 1, 'a4', 'png')).toBe(
      'flashbooth-poster-demo-booth-1-a4.png',
    );
    expect(posterFileName('Café  Été / #2', 9, 'a5', 'svg')).toBe(
      'flashbooth-poster-cafe-ete-2-9-a5.svg',
    );
    // Nothing usable in the name: the id alone.
    expect(posterFileName('ブース', 3, 'a4', 'png')).toBe('flashbooth-poster-3-a4.png');
  });

  it('keeps slugs short and without dangling dashes', () => {
    const slug = slugify(`${'long name '.repeat(10)}`);
    expect(slug.length).toBeLessThanOrEqual(40);
    expect(slug).not.toMatch(/^-|-$|--/);
  });
});

describe('fitText', () => {
  const options = { maxWidth: 100, fontSize: 10, minFontSize: 6, maxLines: 2, charWidth: 0.5 };

  it('keeps a short name on one line at full size', () => {
    expect(fitText('Demo Café', options)).toEqual({ lines: ['Demo Café'], fontSize: 10 });
  });

  it('wraps a longer name at word boundaries before shrinking it', () => {
    // 20 characters a line at size 10.
    const block = fitText('The Grand Riverside Hotel Ballroom', options);
    expect(block.fontSize).toBe(10);
    expect(block.lines).toEqual(['The Grand Riverside', 'Hotel Ballroom']);
  });

  it('shrinks rather than splitting a long word', () => {
    // 30 characters: one line only below size 6.7.
    const block = fitText('Pneumonoultramicroscopicsilico', options);
    expect(block.lines).toEqual(['Pneumonoultramicroscopicsilico']);
    expect(block.fontSize).toBeLessThan(10);
    expect(block.fontSize * 0.5 * block.lines[0]!.length).toBeLessThanOrEqual(100);
  });

  it('cuts what cannot fit at the smallest size with an ellipsis', () => {
    const block = fitText('word '.repeat(100), options);
    expect(block.fontSize).toBe(6);
    expect(block.lines).toHaveLength(2);
    expect(block.lines[1]!.endsWith('…')).toBe(true);
    for (const line of block.lines) expect(line.length).toBeLessThanOrEqual(Math.floor(100 / 3));
  });

  it('gives no lines for a blank text', () => {
    expect(fitText('   ', options).lines).toEqual([]);
  });
});

describe('posterLayout', () => {
  it('scales the A4 design to A5 and centres it on the sheet', () => {
    const a4 = posterLayout('a4', 'Venue', 'Booth');
    const a5 = posterLayout('a5', 'Venue', 'Booth');
    expect(a4.scale).toBe(1);
    expect(a4.offsetY).toBe(0);
    expect(a5.scale).toBeCloseTo(148 / 210);
    expect(DESIGN.height * a5.scale + 2 * a5.offsetY).toBeCloseTo(POSTER_SIZES.a5.heightMm);
  });

  it('keeps the names above the code and everything inside the margins', () => {
    for (const venue of ['Café', 'A very long venue name that needs two lines to be read']) {
      const layout = posterLayout('a4', venue, 'Booth at the entrance');
      const lastBaseline = Math.max(...layout.venue.baselines, ...layout.booth.baselines);
      expect(lastBaseline).toBeLessThan(layout.card.y);
      expect(Math.min(...layout.venue.baselines) - layout.venue.fontSize).toBeGreaterThan(56);
      expect(layout.card.x).toBeGreaterThanOrEqual(DESIGN.margin);
      expect(layout.card.x + layout.card.size).toBeLessThanOrEqual(DESIGN.width - DESIGN.margin);
      expect(layout.footerY).toBeLessThanOrEqual(DESIGN.height - DESIGN.margin);
      expect(layout.urlY).toBeLessThan(layout.footerY);
    }
  });

  it('shrinks a long printed address to the sheet’s width', () => {
    const short = posterLayout('a4', 'Venue', 'Booth', 'booths.example.com/b/1');
    const long = posterLayout('a4', 'Venue', 'Booth', `${'sub.'.repeat(20)}example.com/b/1`);
    expect(short.urlFontSize).toBe(5.5);
    expect(long.urlFontSize).toBeLessThan(5.5);
    expect(long.urlFontSize * 0.6 * 95).toBeLessThanOrEqual(DESIGN.width - 2 * DESIGN.margin);
  });

  it('prints the code large enough to scan from a step away, even on A5', () => {
    const a5 = posterLayout('a5', 'Venue', 'Booth');
    // At least 80 mm on paper.
    expect(a5.qr.size * a5.scale).toBeGreaterThan(80);
  });
});

describe('qrPath', () => {
  it('draws one rectangle per run of dark modules, offset by the quiet zone', () => {
    const dark = new Set(['0,0', '0,1', '0,3', '2,2']);
    const path = qrPath({ size: 4, isDark: (row, column) => dark.has(`${row},${column}`) });
    const q = QR_QUIET_ZONE;
    expect(path).toBe(`M${q} ${q}h2v1h-2zM${q + 3} ${q}h1v1h-1zM${q + 2} ${q + 2}h1v1h-1z`);
  });

  it('covers exactly the dark modules of a real code', () => {
    const code = QRCode.create('https://booths.example.com/b/1', { errorCorrectionLevel: 'Q' });
    const { size } = code.modules;
    const isDark = (row: number, column: number) => Boolean(code.modules.get(row, column));
    const path = qrPath({ size, isDark });
    let covered = 0;
    for (const match of path.matchAll(/h(\d+)v1/g)) covered += Number(match[1]);
    let dark = 0;
    for (let row = 0; row < size; row += 1)
      for (let column = 0; column < size; column += 1) if (isDark(row, column)) dark += 1;
    expect(covered).toBe(dark);
  });
});

describe('withPngResolution', () => {
  // The smallest PNG: signature, IHDR of a 1×1 image, IDAT, IEND.
  const png = Uint8Array.from(
    Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    ),
  );

  it('computes the CRC that PNG chunks use', () => {
    const bytes = new TextEncoder().encode('pHYs and more');
    expect(crc32(bytes)).toBe(zlibCrc32(bytes));
  });

  it('adds a pHYs chunk of 300 dpi right after IHDR', () => {
    const out = withPngResolution(png);
    expect(out.length).toBe(png.length + 21);
    expect(Array.from(out.subarray(0, 33))).toEqual(Array.from(png.subarray(0, 33)));
    const view = new DataView(out.buffer, out.byteOffset + 33, 21);
    expect(view.getUint32(0)).toBe(9);
    expect(String.fromCharCode(...out.subarray(37, 41))).toBe('pHYs');
    expect(view.getUint32(8)).toBe(11811);
    expect(view.getUint32(12)).toBe(11811);
    expect(out[49]).toBe(1);
    expect(view.getUint32(17)).toBe(zlibCrc32(out.subarray(37, 50)));
    expect(Array.from(out.subarray(54))).toEqual(Array.from(png.subarray(33)));
  });

  it('leaves anything that is not a PNG alone', () => {
    const notPng = new Uint8Array(40).fill(7);
    expect(withPngResolution(notPng)).toBe(notPng);
  });
});
