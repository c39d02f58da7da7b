/**
 * Draws the five sample photos ("scenes") of Template Studio's JPG sample and the template print
 * preview: made for the project from SVG shapes and gradients (no stock photos, no licence
 * question), rendered with sharp to small 1620×1080 JPEGs committed under
 * packages/print-composition/assets/scenes.
 *
 *   node --import tsx scripts/make-scene-photos.ts
 *
 * The output is deterministic (a seeded generator places stars, windows and flowers), so
 * running it again gives the same pictures.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const W = 1620;
const H = 1080;
const out = path.join(
  import.meta.dirname,
  '..',
  'packages',
  'print-composition',
  'assets',
  'scenes',
);

/** Mulberry32: a tiny seeded generator, so every run draws the same scene. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const svg = (body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${body}</svg>`;

function beachSunset(): string {
  const waves = Array.from({ length: 14 }, (_, i) => {
    const y = 700 + i * 26;
    const w = 120 + i * 28;
    return `<rect x="${810 - w / 2}" y="${y}" width="${w}" height="${6 + i / 2}" rx="4" fill="#ffd9a0" opacity="${0.55 - i * 0.03}"/>`;
  }).join('');
  return svg(`
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#3b2a6b"/><stop offset="0.45" stop-color="#d9577a"/>
      <stop offset="0.8" stop-color="#ffa45c"/><stop offset="1" stop-color="#ffd27a"/>
    </linearGradient>
    <linearGradient id="sea" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#c9567a"/><stop offset="1" stop-color="#2a2350"/>
    </linearGradient>
    <radialGradient id="sun"><stop offset="0" stop-color="#fff6c8"/><stop offset="0.55" stop-color="#ffd36b"/>
      <stop offset="1" stop-color="#ff9a4d" stop-opacity="0"/></radialGradient>
  </defs>
  <rect width="${W}" height="700" fill="url(#sky)"/>
  <circle cx="810" cy="640" r="260" fill="url(#sun)"/>
  <circle cx="810" cy="650" r="120" fill="#fff1b8"/>
  <rect y="690" width="${W}" height="${H - 690}" fill="url(#sea)"/>
  ${waves}
  <path d="M0 940 C400 890 900 960 ${W} 900 L${W} ${H} L0 ${H} Z" fill="#3a2236"/>
  <path d="M1290 950 C1300 800 1320 640 1380 520" stroke="#1e1020" stroke-width="26" fill="none" stroke-linecap="round"/>
  <g fill="#1e1020">
    <path d="M1380 520 C1300 470 1210 490 1150 560 C1240 520 1310 525 1380 530 Z"/>
    <path d="M1380 520 C1450 450 1540 450 1600 510 C1520 490 1450 500 1380 530 Z"/>
    <path d="M1380 520 C1360 430 1300 390 1230 400 C1300 430 1340 470 1375 530 Z"/>
    <path d="M1380 520 C1430 430 1500 400 1560 410 C1490 440 1430 480 1385 530 Z"/>
    <path d="M1380 520 C1370 600 1330 650 1290 680 C1330 620 1360 570 1378 525 Z"/>
  </g>
  <g fill="#2a1a35" opacity="0.8">
    <path d="M420 240 q15 -14 30 0 q15 -14 30 0" stroke="#2a1a35" stroke-width="6" fill="none"/>
    <path d="M520 200 q12 -11 24 0 q12 -11 24 0" stroke="#2a1a35" stroke-width="5" fill="none"/>
  </g>`);
}

function mountainLake(): string {
  const rand = seeded(7);
  const trees = Array.from({ length: 22 }, (_, i) => {
    const x = i < 11 ? 20 + i * 38 + rand() * 14 : 1180 + (i - 11) * 40 + rand() * 14;
    const h = 150 + rand() * 110;
    const base = 700;
    return `<path d="M${x} ${base - h} L${x + 34} ${base} L${x - 34} ${base} Z" fill="#1f4d3a"/>`;
  }).join('');
  return svg(`
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#5aa7e6"/><stop offset="1" stop-color="#cfe9f7"/>
    </linearGradient>
    <linearGradient id="far" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#7d93b5"/><stop offset="1" stop-color="#a8bad3"/>
    </linearGradient>
    <linearGradient id="near" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#4b6a8f"/><stop offset="1" stop-color="#35506f"/>
    </linearGradient>
    <linearGradient id="lake" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#7fb6d9"/><stop offset="1" stop-color="#2e6b8f"/>
    </linearGradient>
    <filter id="soft"><feGaussianBlur stdDeviation="18"/></filter>
  </defs>
  <rect width="${W}" height="${H}" fill="url(#sky)"/>
  <g fill="#ffffff" opacity="0.85" filter="url(#soft)">
    <ellipse cx="330" cy="170" rx="170" ry="42"/><ellipse cx="1200" cy="130" rx="210" ry="48"/>
  </g>
  <path d="M0 620 L250 330 L430 480 L700 210 L960 470 L1150 300 L1400 520 L${W} 380 L${W} 700 L0 700 Z" fill="url(#far)"/>
  <path d="M700 210 L780 300 L740 290 L700 330 L660 290 L620 300 Z" fill="#ffffff"/>
  <path d="M1150 300 L1210 360 L1170 352 L1140 380 L1110 350 Z" fill="#ffffff"/>
  <path d="M0 700 L330 450 L560 620 L820 400 L1100 650 L1350 480 L${W} 640 L${W} 700 Z" fill="url(#near)"/>
  ${trees}
  <rect y="700" width="${W}" height="${H - 700}" fill="url(#lake)"/>
  <g transform="translate(0 1400) scale(1 -1)" opacity="0.3">
    <path d="M0 700 L330 450 L560 620 L820 400 L1100 650 L1350 480 L${W} 640 L${W} 700 Z" fill="#1d3a55"/>
  </g>
  <g fill="#ffffff" opacity="0.35">
    <rect x="300" y="780" width="260" height="5" rx="2"/><rect x="900" y="840" width="340" height="5" rx="2"/>
    <rect x="560" y="930" width="200" height="4" rx="2"/><rect x="1200" y="990" width="240" height="4" rx="2"/>
  </g>`);
}

function nightCity(): string {
  const rand = seeded(42);
  const stars = Array.from({ length: 90 }, () => {
    const r = 1 + rand() * 2.2;
    return `<circle cx="${(rand() * W).toFixed(0)}" cy="${(rand() * 460).toFixed(0)}" r="${r.toFixed(1)}" fill="#fff" opacity="${(0.4 + rand() * 0.6).toFixed(2)}"/>`;
  }).join('');
  let x = 0;
  const buildings: string[] = [];
  while (x < W) {
    const bw = 70 + Math.floor(rand() * 120);
    const bh = 220 + Math.floor(rand() * 380);
    const top = 820 - bh;
    const shade = ['#1b2140', '#222a4f', '#151a33'][Math.floor(rand() * 3)];
    buildings.push(`<rect x="${x}" y="${top}" width="${bw - 6}" height="${bh}" fill="${shade}"/>`);
    for (let wy = top + 24; wy < 800; wy += 34) {
      for (let wx = x + 12; wx < x + bw - 24; wx += 26) {
        if (rand() < 0.42) {
          const hue = rand() < 0.7 ? '#ffd97a' : '#9fe3ff';
          buildings.push(
            `<rect x="${wx}" y="${wy}" width="12" height="16" fill="${hue}" opacity="0.9"/>`,
          );
        }
      }
    }
    x += bw;
  }
  return svg(`
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#0b1030"/><stop offset="0.7" stop-color="#2b2f6e"/><stop offset="1" stop-color="#7a4a8c"/>
    </linearGradient>
    <linearGradient id="water" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#2b2a5c"/><stop offset="1" stop-color="#0a0c22"/>
    </linearGradient>
    <radialGradient id="moon"><stop offset="0" stop-color="#fffbe6"/><stop offset="0.6" stop-color="#fff3c2"/>
      <stop offset="1" stop-color="#fff3c2" stop-opacity="0"/></radialGradient>
    <filter id="blur"><feGaussianBlur stdDeviation="6"/></filter>
  </defs>
  <rect width="${W}" height="${H}" fill="url(#sky)"/>
  ${stars}
  <circle cx="1290" cy="190" r="140" fill="url(#moon)"/>
  <circle cx="1290" cy="190" r="70" fill="#fff8dc"/>
  ${buildings.join('')}
  <rect y="820" width="${W}" height="${H - 820}" fill="url(#water)"/>
  <g transform="translate(0 1640) scale(1 -1)" opacity="0.35" filter="url(#blur)">${buildings.join('')}</g>
  <rect y="820" width="${W}" height="8" fill="#ffd97a" opacity="0.25"/>`);
}

function flowerMeadow(): string {
  const rand = seeded(3);
  const colours = ['#ff6f91', '#ffc75f', '#f9f871', '#c493ff', '#ff9671', '#ffffff'];
  const flowers = Array.from({ length: 70 }, () => {
    const y = 640 + rand() * 420;
    const scale = 0.5 + ((y - 640) / 420) * 1.3;
    const x = rand() * W;
    const c = colours[Math.floor(rand() * colours.length)];
    const petals = Array.from({ length: 6 }, (_, p) => {
      const a = (p * Math.PI) / 3;
      return `<ellipse cx="${(Math.cos(a) * 14).toFixed(1)}" cy="${(Math.sin(a) * 14).toFixed(1)}" rx="11" ry="7" transform="rotate(${p * 60} ${(Math.cos(a) * 14).toFixed(1)} ${(Math.sin(a) * 14).toFixed(1)})" fill="${c}"/>`;
    }).join('');
    return `<g transform="translate(${x.toFixed(0)} ${y.toFixed(0)}) scale(${scale.toFixed(2)})"><path d="M0 8 L0 70" stroke="#2f7a3a" stroke-width="4"/>${petals}<circle r="8" fill="#ffb400"/></g>`;
  }).join('');
  return svg(`
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#8fd3ff"/><stop offset="1" stop-color="#fff1d6"/>
    </linearGradient>
    <linearGradient id="hill1" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#9fd86b"/><stop offset="1" stop-color="#5aa845"/></linearGradient>
    <linearGradient id="hill2" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#6cc24a"/><stop offset="1" stop-color="#2f7a3a"/></linearGradient>
    <radialGradient id="sun"><stop offset="0" stop-color="#fffbe0"/><stop offset="1" stop-color="#fffbe0" stop-opacity="0"/></radialGradient>
    <filter id="soft"><feGaussianBlur stdDeviation="14"/></filter>
  </defs>
  <rect width="${W}" height="${H}" fill="url(#sky)"/>
  <circle cx="300" cy="200" r="230" fill="url(#sun)"/>
  <circle cx="300" cy="200" r="80" fill="#fff6c4"/>
  <g fill="#ffffff" opacity="0.9" filter="url(#soft)">
    <ellipse cx="1000" cy="180" rx="200" ry="50"/><ellipse cx="1350" cy="260" rx="150" ry="40"/>
  </g>
  <path d="M0 560 C300 460 600 470 900 560 C1150 630 1400 520 ${W} 540 L${W} ${H} L0 ${H} Z" fill="url(#hill1)"/>
  <path d="M0 700 C350 600 700 640 1000 700 C1250 750 1450 660 ${W} 680 L${W} ${H} L0 ${H} Z" fill="url(#hill2)"/>
  ${flowers}
  <g fill="#ff6f91"><ellipse cx="1180" cy="420" rx="20" ry="12" transform="rotate(-30 1180 420)"/>
    <ellipse cx="1210" cy="420" rx="20" ry="12" transform="rotate(30 1210 420)"/></g>`);
}

function friends(): string {
  const rand = seeded(11);
  const bokeh = Array.from({ length: 40 }, () => {
    const c = ['#ffd166', '#ef476f', '#06d6a0', '#118ab2', '#ffffff'][Math.floor(rand() * 5)];
    return `<circle cx="${(rand() * W).toFixed(0)}" cy="${(rand() * H).toFixed(0)}" r="${(20 + rand() * 60).toFixed(0)}" fill="${c}" opacity="${(0.15 + rand() * 0.3).toFixed(2)}"/>`;
  }).join('');
  const person = (cx: number, skin: string, hair: string, shirt: string, hat: boolean) => `
    <path d="M${cx - 230} ${H} C${cx - 230} 800 ${cx - 150} 720 ${cx} 720 C${cx + 150} 720 ${cx + 230} 800 ${cx + 230} ${H} Z" fill="${shirt}"/>
    <rect x="${cx - 45}" y="640" width="90" height="100" rx="30" fill="${skin}"/>
    <ellipse cx="${cx}" cy="${hat ? 520 : 500}" rx="150" ry="165" fill="${hair}"/>
    <ellipse cx="${cx}" cy="540" rx="125" ry="145" fill="${skin}"/>
    <path d="M${cx - 130} 480 C${cx - 110} 380 ${cx + 110} 370 ${cx + 135} 470 C${cx + 60} 420 ${cx - 40} 430 ${cx - 130} 480 Z" fill="${hair}"/>
    <circle cx="${cx - 45}" cy="540" r="13" fill="#2b2b2b"/><circle cx="${cx + 45}" cy="540" r="13" fill="#2b2b2b"/>
    <circle cx="${cx - 80}" cy="590" r="22" fill="#ff8fa3" opacity="0.45"/><circle cx="${cx + 80}" cy="590" r="22" fill="#ff8fa3" opacity="0.45"/>
    <path d="M${cx - 50} 600 Q${cx} 650 ${cx + 50} 600" stroke="#7a2e3a" stroke-width="10" fill="#fff" stroke-linecap="round"/>
    ${hat ? `<path d="M${cx - 60} 400 L${cx + 10} 220 L${cx + 70} 395 Z" fill="#ffd166"/><circle cx="${cx + 10}" cy="220" r="18" fill="#ef476f"/><path d="M${cx - 45} 360 L${cx + 58} 360" stroke="#ef476f" stroke-width="10"/>` : ''}`;
  const balloon = (x: number, y: number, c: string) =>
    `<path d="M${x} ${y + 95} C${x - 20} ${y + 200} ${x + 25} ${y + 280} ${x} ${y + 380}" stroke="#ffffff" stroke-width="3" fill="none" opacity="0.8"/>
     <ellipse cx="${x}" cy="${y}" rx="70" ry="90" fill="${c}"/><ellipse cx="${x - 25}" cy="${y - 35}" rx="14" ry="24" fill="#ffffff" opacity="0.45"/>`;
  return svg(`
  <defs>
    <radialGradient id="bg" cx="0.5" cy="0.35" r="0.8">
      <stop offset="0" stop-color="#5b3d8f"/><stop offset="1" stop-color="#1c1238"/>
    </radialGradient>
    <filter id="bokeh"><feGaussianBlur stdDeviation="10"/></filter>
  </defs>
  <rect width="${W}" height="${H}" fill="url(#bg)"/>
  <g filter="url(#bokeh)">${bokeh}</g>
  ${balloon(180, 260, '#ef476f')}${balloon(330, 190, '#ffd166')}${balloon(1440, 240, '#06d6a0')}
  ${person(560, '#f1c8a5', '#3b2416', '#118ab2', true)}
  ${person(1060, '#a86b47', '#1a1a1a', '#ef476f', false)}`);
}

const scenes = [beachSunset, mountainLake, nightCity, flowerMeadow, friends];
mkdirSync(out, { recursive: true });
for (const [index, scene] of scenes.entries()) {
  const file = path.join(out, `scene-${index + 1}.jpg`);
  const jpeg = await sharp(Buffer.from(scene()))
    .jpeg({ quality: 78, mozjpeg: true, chromaSubsampling: '4:2:0' })
    .toBuffer();
  writeFileSync(file, jpeg);
  console.log(`${path.relative(process.cwd(), file)}: ${(jpeg.length / 1024).toFixed(1)} KB`);
}
