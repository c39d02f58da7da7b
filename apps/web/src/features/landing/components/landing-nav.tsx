import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { NAV_SECTIONS } from '../content';
import { BrandLogo } from './brand-logo';
import { bookDemoLinkProps } from './book-demo-dialog';

interface LandingNavProps {
  activeSection: string | null;
  onBookDemo: () => void;
}

/** Sticky top bar: logo, in-page section links (the one in view is marked) and Book a demo. */
export function LandingNav({ activeSection, onBookDemo }: LandingNavProps) {
  const navRef = useRef<HTMLElement>(null);

  // On narrow screens the links scroll sideways: keep the highlighted one in sight.
  useEffect(() => {
    const nav = navRef.current;
    if (!nav || !activeSection || nav.scrollWidth <= nav.clientWidth) return;
    const link = nav.querySelector<HTMLElement>(`a[href="#${activeSection}"]`);
    if (!link) return;
    const left = link.offsetLeft - (nav.clientWidth - link.offsetWidth) / 2;
    nav.scrollTo({ left: Math.max(0, left) });
  }, [activeSection]);

  return (
    <header className="lp-header">
      <div className="lp-header-inner">
        <Link to={paths.home.getHref()} className="lp-header-logo" aria-label="Flashbooth home">
          <BrandLogo />
        </Link>
        <nav className="lp-nav" aria-label="Page sections" ref={navRef}>
          <ul className="lp-nav-list">
            {NAV_SECTIONS.map((section) => {
              const current = activeSection === section.id;
              return (
                <li key={section.id}>
                  <a
                    href={`#${section.id}`}
                    className={current ? 'lp-nav-link is-active' : 'lp-nav-link'}
                    aria-current={current ? 'true' : undefined}
                  >
                    {section.label}
                  </a>
                </li>
              );
            })}
          </ul>
        </nav>
        <a className="btn btn-primary lp-header-cta" {...bookDemoLinkProps(onBookDemo)}>
          Book a demo
        </a>
      </div>
    </header>
  );
}
