import { paths } from '@/config/paths';
import privacyHtml from './content/privacy.md?html';
import refundHtml from './content/refund.md?html';
import termsHtml from './content/terms.md?html';

export type LegalDoc = 'terms' | 'refund' | 'privacy';

export interface LegalDocument {
  title: string;
  href: string;
  /** The Markdown body rendered to HTML at build time; `{email}` stands for the support address. */
  html: string;
}

export const EFFECTIVE_DATE = '14 May 2025';
export const EFFECTIVE_DATE_ISO = '2025-05-14';

export const LEGAL_DOCUMENTS: Record<LegalDoc, LegalDocument> = {
  terms: { title: 'Terms and Conditions', href: paths.terms.getHref(), html: termsHtml },
  refund: { title: 'Refund Policy', href: paths.refund.getHref(), html: refundHtml },
  privacy: { title: 'Privacy Policy', href: paths.privacy.getHref(), html: privacyHtml },
};

export const LEGAL_DOC_ORDER: readonly LegalDoc[] = ['terms', 'refund', 'privacy'];

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** Fills the `{email}` placeholder with the installation's support address. */
export function fillPlaceholders(html: string, supportEmail: string): string {
  return html.replaceAll('{email}', escapeHtml(supportEmail));
}
