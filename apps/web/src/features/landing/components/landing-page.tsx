import { useCallback, useState } from 'react';
import { useSession } from '@/lib/session';
import { SECTION_IDS } from '../content';
import { useActiveSection } from '../hooks/use-scroll-position';
import { BenefitsSection } from './benefits-section';
import { BookDemoDialog, BookDemoFallback, useBookDemoFragment } from './book-demo-dialog';
import { BrandingSection } from './branding-section';
import { ContactSection } from './contact-section';
import { ExperienceSection } from './experience-section';
import { HeroSection } from './hero-section';
import { LandingFooter } from './landing-footer';
import { LandingNav } from './landing-nav';
import { ScrollToTopButton } from './scroll-to-top-button';
import { TechnologySection } from './technology-section';
import '../landing.css';

/** The public brochure (served at / and /brochure). */
export function LandingPage() {
  const { auth, user } = useSession();
  const signedIn = auth.status === 'authenticated' && user !== null;
  const activeSection = useActiveSection(SECTION_IDS);
  const [demoOpen, setDemoOpen] = useState(false);
  const openDemo = useCallback(() => setDemoOpen(true), []);
  useBookDemoFragment(openDemo);

  return (
    <div className="landing">
      <title>Flashbooth — premium branded photo booths with instant prints</title>
      <a className="lp-skip-link" href="#main">
        Skip to content
      </a>
      <LandingNav activeSection={activeSection} onBookDemo={openDemo} />
      <main id="main" tabIndex={-1}>
        <HeroSection />
        <BenefitsSection />
        <BrandingSection />
        <ExperienceSection />
        <TechnologySection />
        <ContactSection onBookDemo={openDemo} />
      </main>
      <LandingFooter signedIn={signedIn} />
      <ScrollToTopButton aboveNav={signedIn} />
      <BookDemoFallback />
      <BookDemoDialog open={demoOpen} onClose={() => setDemoOpen(false)} />
    </div>
  );
}
