import { appConfig } from '@/config/app-config';
import { POSTAL_ADDRESS } from '../content';
import { CheckIcon, MailIcon, PinIcon } from './icons';
import { bookDemoLinkProps } from './book-demo-dialog';

const TERMS = [
  'Zero installation or operational fees',
  'Installed and printing in under 10 days',
  'Minimum 3-month initial commitment',
];

/** Lets a long address wrap after the @ rather than mid-word on narrow screens. */
function BreakableEmail({ address }: { address: string }) {
  const at = address.indexOf('@');
  if (at < 0) return address;
  return (
    <>
      {address.slice(0, at + 1)}
      <wbr />
      {address.slice(at + 1)}
    </>
  );
}

export function ContactSection({ onBookDemo }: { onBookDemo: () => void }) {
  return (
    <section id="contact" className="lp-section lp-contact" aria-labelledby="contact-title">
      <div className="lp-container">
        <div className="lp-contact-card">
          <div className="lp-contact-copy">
            <p className="lp-eyebrow lp-eyebrow-inverse">Contact</p>
            <h2 id="contact-title" className="lp-section-title">
              Let’s bring Flashbooth to your venue
            </h2>
            <p className="lp-section-lede">
              Book a 20-minute demo and we’ll show you the booth, design a sample template in your
              brand and walk you through the simple partnership terms.
            </p>
            <ul className="lp-checklist lp-checklist-inverse">
              {TERMS.map((term) => (
                <li key={term}>
                  <span className="lp-check">
                    <CheckIcon />
                  </span>
                  {term}
                </li>
              ))}
            </ul>
            <a className="btn lp-btn-light lp-btn-lg" {...bookDemoLinkProps(onBookDemo)}>
              Book a Demo
            </a>
          </div>
          <div className="lp-contact-details">
            <div className="lp-contact-item">
              <span className="lp-contact-icon">
                <MailIcon />
              </span>
              <div>
                <h3 className="lp-contact-label">E-mail</h3>
                <a href={`mailto:${appConfig.supportEmail}`} className="lp-contact-link">
                  <BreakableEmail address={appConfig.supportEmail} />
                </a>
              </div>
            </div>
            <div className="lp-contact-item">
              <span className="lp-contact-icon">
                <PinIcon />
              </span>
              <div>
                <h3 className="lp-contact-label">Studio</h3>
                <address className="lp-address">
                  {POSTAL_ADDRESS.map((line) => (
                    <span key={line}>{line}</span>
                  ))}
                </address>
              </div>
            </div>
          </div>
        </div>
      </div>
    </section>
  );
}
