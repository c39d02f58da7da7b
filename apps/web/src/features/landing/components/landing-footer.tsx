import { Link } from 'react-router';
import { appConfig } from '@/config/app-config';
import { paths } from '@/config/paths';
import { BrandLogo } from './brand-logo';

export function LandingFooter({ signedIn }: { signedIn: boolean }) {
  return (
    <footer className={signedIn ? 'lp-footer lp-footer-with-nav' : 'lp-footer'}>
      <div className="lp-container lp-footer-inner">
        <div className="lp-footer-brand">
          <BrandLogo inverse />
          <p>Premium branded photo booths with instant prints and digital sharing.</p>
        </div>
        <nav className="lp-footer-nav" aria-label="Footer">
          <ul>
            <li>
              <Link to={paths.terms.getHref()}>Terms and Conditions</Link>
            </li>
            <li>
              <Link to={paths.refund.getHref()}>Refund Policy</Link>
            </li>
            <li>
              <Link to={paths.privacy.getHref()}>Privacy Policy</Link>
            </li>
            <li>
              <a href={`mailto:${appConfig.partnershipEmail}`}>Partnerships</a>
            </li>
            <li>
              <a href={`mailto:${appConfig.supportEmail}`}>Support</a>
            </li>
          </ul>
        </nav>
      </div>
      <div className="lp-container">
        {/* The year is the build's in the prerendered page; a new year's visitor sees their own. */}
        <p className="lp-copyright" suppressHydrationWarning>
          © {new Date().getFullYear()} Flashbooth. Designed and made in India.
        </p>
      </div>
    </footer>
  );
}
