import { CheckIcon } from './icons';
import { TemplateCarousel } from './template-carousel';

const BRANDING_POINTS = [
  'Templates designed around your logo, colours and typography',
  'Seasonal and event-specific layouts, switched remotely in minutes',
  'Booth wrap and on-screen experience that match your space',
  'Every shared photo carries your name to your guests’ followers',
];

export function BrandingSection() {
  return (
    <section id="branding" className="lp-section lp-section-tint" aria-labelledby="branding-title">
      <div className="lp-container lp-split">
        <div className="lp-split-copy">
          <p className="lp-eyebrow">Branded experience</p>
          <h2 id="branding-title" className="lp-section-title">
            Your brand, on every print and every share
          </h2>
          <p className="lp-section-lede">
            A Flashbooth is a premium, branded booth — not a rented box in the corner. Each photo
            leaves your venue in a frame made for you, so the memory and your name travel together.
          </p>
          <ul className="lp-checklist">
            {BRANDING_POINTS.map((point) => (
              <li key={point}>
                <span className="lp-check">
                  <CheckIcon />
                </span>
                {point}
              </li>
            ))}
          </ul>
        </div>
        <TemplateCarousel />
      </div>
    </section>
  );
}
