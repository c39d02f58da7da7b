import type { ReactNode } from 'react';
import { CalendarIcon, FootprintIcon, HeartIcon, PrintIcon, QrIcon, WalletIcon } from './icons';

interface Benefit {
  icon: ReactNode;
  title: string;
  text: string;
}

const BENEFITS: Benefit[] = [
  {
    icon: <PrintIcon />,
    title: 'Prints in about 12 seconds',
    text: 'Rich, smudge-free prints slide out while the smiles are still fresh. No queues building up behind the curtain.',
  },
  {
    icon: <QrIcon />,
    title: 'Digital shares, no app needed',
    text: 'Guests scan a QR code and their photos land on their phone, ready to post, save or send to the group chat.',
  },
  {
    icon: <FootprintIcon />,
    title: 'Fits in under 2 ft × 2 ft',
    text: 'A slim footprint that slots beside a counter, a lobby pillar or a dance floor without stealing your floor plan.',
  },
  {
    icon: <WalletIcon />,
    title: 'Zero installation or operational fees',
    text: 'We install, maintain and keep the booth stocked. You bring the footfall; we handle the rest.',
  },
  {
    icon: <CalendarIcon />,
    title: 'Live in under 10 days',
    text: 'From signed agreement to first print in less than ten days, including your custom-branded templates.',
  },
  {
    icon: <HeartIcon />,
    title: 'Made in India',
    text: 'Designed, built and supported in India, with local service teams who understand your venue and your guests.',
  },
];

export function BenefitsSection() {
  return (
    <section id="benefits" className="lp-section" aria-labelledby="benefits-title">
      <div className="lp-container">
        <div className="lp-section-head">
          <p className="lp-eyebrow">Benefits</p>
          <h2 id="benefits-title" className="lp-section-title">
            Why venues choose Flashbooth
          </h2>
          <p className="lp-section-lede">
            A premium attraction that guests remember, talk about and share — without adding staff,
            setup costs or clutter.
          </p>
        </div>
        <ul className="lp-benefits">
          {BENEFITS.map((benefit) => (
            <li key={benefit.title} className="lp-benefit">
              <span className="lp-benefit-icon">{benefit.icon}</span>
              <h3 className="lp-benefit-title">{benefit.title}</h3>
              <p className="lp-benefit-text">{benefit.text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
