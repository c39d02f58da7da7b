import type { FastifyReply } from 'fastify';

/**
 * A page a visitor opens from outside the app — the booth's QR code (`/b/{id}`), a shared
 * photo's link (`/p/{id}`), the landing, sign-in, the wall and the legal pages — is sent without
 * helmet's `Cross-Origin-Opener-Policy: same-origin` (plugins/security-headers.ts). That header makes the browser put the page
 * in a browsing context group of its own, so a tab that opens it (the phone's new tab, whose
 * initial page has no such policy) must start a fresh renderer for it: measured with the
 * Lighthouse CLI's mobile preset on a copy of the booth page, 183–418 ms of total blocking time
 * with the header against 65–164 ms without (docs/benchmarks.md). These pages hold nothing of
 * the visitor's in their HTML (what is the visitor's comes later from the API with a bearer
 * token), which is what the policy would keep from a cross-origin opener; every other page (the
 * console, the app's shell) keeps it.
 */
export function openableFromOutside(reply: FastifyReply): FastifyReply {
  reply.raw.removeHeader('Cross-Origin-Opener-Policy');
  return reply;
}
