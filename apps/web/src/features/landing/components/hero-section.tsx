import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session';

const HERO_FACTS = [
  { value: '~12 s', label: 'per print' },
  { value: 'No app', label: 'QR sharing' },
  { value: '₹0', label: 'install & running fees' },
];

/** Headline, pitch, sign-in links (or a welcome when signed in) and the kiosk illustration. */
export function HeroSection() {
  const { auth, user } = useSession();
  const signedIn = auth.status === 'authenticated' && user !== null;

  return (
    <section id="hero" className="lp-hero" aria-labelledby="hero-title">
      <div className="lp-container lp-hero-grid">
        <div className="lp-hero-copy">
          <p className="lp-eyebrow lp-eyebrow-inverse">
            Premium branded photo booths · Made in India
          </p>
          <h1 id="hero-title" className="lp-hero-title">
            Instant prints. <span className="lp-hero-highlight">Shareable moments.</span> Your brand
            in every frame.
          </h1>
          <p className="lp-hero-lede">
            Flashbooth puts a sleek, self-service photo booth in your venue. Guests strike a pose,
            hold a lab-quality print about 12 seconds later, and scan a QR code to take the digital
            copy home — no app, no attendant, no fuss.
          </p>

          {signedIn ? (
            <div className="lp-welcome">
              <p className="lp-welcome-title">Welcome, {user.name}</p>
              <p className="lp-welcome-text">Use the navigation to explore.</p>
            </div>
          ) : (
            <div className="lp-hero-actions">
              <Link to={paths.regular.login.getHref()} className="btn btn-primary lp-btn-lg">
                User Login
              </Link>
              <Link to={paths.enterprise.login.getHref()} className="btn lp-btn-ghost lp-btn-lg">
                Venue Login
              </Link>
              <a href="#contact" className="lp-hero-demo-link">
                Book a Demo <span aria-hidden="true">→</span>
              </a>
            </div>
          )}

          <ul className="lp-hero-facts" aria-label="At a glance">
            {HERO_FACTS.map((fact) => (
              <li key={fact.label}>
                <strong>{fact.value}</strong>
                <span>{fact.label}</span>
              </li>
            ))}
          </ul>
        </div>
        <div className="lp-hero-art">
          <img
            src="/landing/hero-booth.svg"
            alt="A sleek Flashbooth kiosk showing a live camera preview, with a freshly printed photo strip and a phone displaying the shared digital copy."
            width="480"
            height="560"
            fetchPriority="high"
          />
        </div>
      </div>
    </section>
  );
}
