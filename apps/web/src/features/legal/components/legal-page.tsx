import type { MouseEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { appConfig } from '@/config/app-config';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session';
import {
  EFFECTIVE_DATE,
  EFFECTIVE_DATE_ISO,
  LEGAL_DOCUMENTS,
  LEGAL_DOC_ORDER,
  fillPlaceholders,
  type LegalDoc,
} from '../documents';
import '../legal.css';

/** One of the three legal documents (spec: rendered from Markdown, effective 14 May 2025). */
export function LegalPage({ doc }: { doc: LegalDoc }) {
  const { auth, user } = useSession();
  const signedIn = auth.status === 'authenticated' && user !== null;
  const legalDoc = LEGAL_DOCUMENTS[doc];
  const others = LEGAL_DOC_ORDER.filter((key) => key !== doc);
  const navigate = useNavigate();

  /** Same-site links inside the rendered Markdown navigate within the app. */
  const followInternalLink = (event: MouseEvent<HTMLDivElement>) => {
    const anchor = (event.target as HTMLElement).closest('a');
    const href = anchor?.getAttribute('href');
    if (!href?.startsWith('/') || href.startsWith('//')) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    void navigate(href);
  };

  return (
    <div className={signedIn ? 'legal legal-with-nav' : 'legal'}>
      <title>{`${legalDoc.title} — Flashbooth`}</title>
      <header className="legal-header">
        <div className="legal-bar">
          <Link to={paths.home.getHref()} className="legal-logo" aria-label="Flashbooth home">
            <img src="/favicon.svg" alt="" width="32" height="32" />
            <span aria-hidden="true">Flashbooth</span>
          </Link>
        </div>
      </header>

      <main id="main" className="legal-main">
        <article className="legal-article" aria-labelledby="legal-title">
          <header className="legal-intro">
            <p className="legal-kicker">Legal</p>
            <h1 id="legal-title" className="legal-title">
              {legalDoc.title}
            </h1>
            <p className="legal-effective">
              Effective <time dateTime={EFFECTIVE_DATE_ISO}>{EFFECTIVE_DATE}</time>
            </p>
          </header>
          {/* Our own Markdown, compiled at build time: trusted HTML. */}
          <div
            className="legal-content"
            onClick={followInternalLink}
            dangerouslySetInnerHTML={{
              __html: fillPlaceholders(legalDoc.html, appConfig.supportEmail),
            }}
          />
        </article>

        <nav className="legal-more" aria-label="Other legal documents">
          <h2 className="legal-more-title">Related pages</h2>
          <ul>
            {others.map((key) => (
              <li key={key}>
                <Link to={LEGAL_DOCUMENTS[key].href}>{LEGAL_DOCUMENTS[key].title}</Link>
              </li>
            ))}
            <li>
              <Link to={paths.home.getHref()}>Back to home</Link>
            </li>
          </ul>
        </nav>
      </main>

      <footer className="legal-footer">
        <p>
          Questions? Write to{' '}
          <a href={`mailto:${appConfig.supportEmail}`}>{appConfig.supportEmail}</a>
        </p>
        {/* The year is the build's in the prerendered page; a new year's visitor sees their own. */}
        <p suppressHydrationWarning>© {new Date().getFullYear()} Flashbooth</p>
      </footer>
    </div>
  );
}
