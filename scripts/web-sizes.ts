/**
 * The web app's initial JavaScript per visitor route, read from the build's manifest: the entry
 * chunk, the route's lazily loaded module and their static imports. Sizes raw, gzip -9 and
 * Brotli (quality 11, as the build writes the `.br` copies the server sends).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}

export interface RouteSize {
  route: string;
  raw: number;
  gzip: number;
  brotli: number;
}

export const VISITOR_ROUTES: [route: string, manifestKey: string][] = [
  ['/ (landing)', 'src/app/routes/landing.tsx'],
  ['/b/{id} (booth)', 'src/app/routes/regular/booth.tsx'],
  ['/regular/login', 'src/app/routes/regular/login.tsx'],
  ['/regular/media', 'src/app/routes/regular/media.tsx'],
  ['/regular/wall', 'src/app/routes/regular/wall.tsx'],
  ['/regular/profile', 'src/app/routes/regular/profile.tsx'],
  ['/privacy-policy', 'src/app/routes/legal-privacy.tsx'],
];

export function webSizes(
  dist = path.resolve(import.meta.dirname, '../apps/web/dist'),
): RouteSize[] {
  const manifest = JSON.parse(
    readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'),
  ) as Record<string, ManifestChunk>;
  const sizes = new Map<string, Omit<RouteSize, 'route'>>();
  const sizeOf = (file: string) => {
    let size = sizes.get(file);
    if (!size) {
      const bytes = readFileSync(path.join(dist, file));
      const br = path.join(dist, `${file}.br`);
      size = {
        raw: bytes.length,
        gzip: gzipSync(bytes, { level: 9 }).length,
        brotli: existsSync(br)
          ? readFileSync(br).length
          : brotliCompressSync(bytes, {
              params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
            }).length,
      };
      sizes.set(file, size);
    }
    return size;
  };
  const collect = (key: string, seen: Set<string>) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const dep of manifest[key]?.imports ?? []) collect(dep, seen);
  };
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry)!;
  const entry = { route: 'entry chunk alone', ...sizeOf(manifest[entryKey]!.file) };
  return [
    entry,
    ...VISITOR_ROUTES.map(([route, key]) => {
      const seen = new Set<string>();
      collect(entryKey, seen);
      if (manifest[key]) collect(key, seen);
      const total = { route, raw: 0, gzip: 0, brotli: 0 };
      for (const k of seen) {
        const size = sizeOf(manifest[k]!.file);
        total.raw += size.raw;
        total.gzip += size.gzip;
        total.brotli += size.brotli;
      }
      return total;
    }),
  ];
}
