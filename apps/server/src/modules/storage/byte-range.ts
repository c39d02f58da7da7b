/**
 * The one byte range of an HTTP `Range` header a download answers (RFC 9110 §14): `bytes=a-b`,
 * `bytes=a-` (to the end) or `bytes=-n` (the last n bytes), clamped to the file. A header that is
 * not a single byte range (absent, another unit, several ranges, garbled) is ignored and the whole
 * file is sent, as the RFC allows; a range that starts past the end cannot be satisfied (416).
 */
export type ByteRange =
  { kind: 'whole' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

export function byteRange(header: string | undefined, size: number): ByteRange {
  if (!header) return { kind: 'whole' };
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return { kind: 'whole' };
  const [, first, last] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    // The last n bytes; a file shorter than n is sent whole (as a range of all of it).
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  // An end before the start is no valid range: ignored.
  if (last !== '' && Number(last) < start) return { kind: 'whole' };
  if (start >= size) return { kind: 'unsatisfiable' };
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  return { kind: 'partial', start, end };
}
