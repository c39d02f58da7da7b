import { timingSafeEqual } from 'node:crypto';

/**
 * True when `header` is `Bearer <token>` (compared in constant time): the metrics token's check,
 * shared by GET /metrics and GET /api/health/details.
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/.exec(header ?? '')?.[1];
  if (!given) return false;
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(token, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
