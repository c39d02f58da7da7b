import type { Pool } from '@flashbooth/contracts';
import { authorizedFetch, parseError, type RequestOptions } from './api-client';

/**
 * A file the API sends (a CSV export) through the same client, so the bearer token goes with it:
 * the body as a Blob and the file name from Content-Disposition, when the server named one.
 */
export async function apiDownload(
  pool: Pool,
  path: string,
  options: RequestOptions = {},
): Promise<{ blob: Blob; filename: string | null }> {
  const response = await authorizedFetch(pool, path, options, '*/*');
  if (!response.ok) {
    throw await parseError(response, options.fallbackMessage ?? 'Something went wrong.');
  }
  return {
    blob: await response.blob(),
    filename: filenameFromDisposition(response.headers.get('Content-Disposition')),
  };
}

/** The file name of a Content-Disposition header (filename*=UTF-8'' first, then filename=). */
export function filenameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const encoded = /filename\*\s*=\s*(?:UTF-8)?''([^;]+)/i.exec(header);
  if (encoded?.[1]) {
    try {
      return decodeURIComponent(encoded[1].trim());
    } catch {
      // Fall through to the plain name.
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain?.[1]?.trim() || null;
}
