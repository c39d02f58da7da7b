const SPECS = [
  { value: '~12 s', label: 'Print time', detail: 'From shutter to finished print' },
  { value: '32″', label: 'Display', detail: 'Big, bright live preview for groups' },
  { value: '< 2 × 2 ft', label: 'Footprint', detail: 'Fits where a plant pot would' },
  { value: '< 10 days', label: 'Installation', detail: 'From agreement to first print' },
];

const CRAFT_POINTS = [
  {
    title: 'Built to be admired',
    text: 'A clean, furniture-grade cabinet with a ring light that flatters every skin tone, day or night.',
  },
  {
    title: 'Engineered for busy floors',
    text: 'Sessions, prints and paper levels are monitored remotely, and software updates arrive over the air — no visits, no downtime.',
  },
  {
    title: 'Made in India',
    text: 'Designed and assembled in India, with parts and service close to your venue.',
  },
];

export function TechnologySection() {
  return (
    <section id="technology" className="lp-section" aria-labelledby="technology-title">
      <div className="lp-container">
        <div className="lp-section-head">
          <p className="lp-eyebrow">Craftsmanship</p>
          <h2 id="technology-title" className="lp-section-title">
            Crafted with care, engineered to keep going
          </h2>
          <p className="lp-section-lede">
            Every Flashbooth pairs a studio-grade camera and printer with software we build and run
            ourselves, so the booth looks beautiful and simply works.
          </p>
        </div>
        <dl className="lp-specs">
          {SPECS.map((spec) => (
            <div key={spec.label} className="lp-spec">
              <dt className="lp-spec-label">{spec.label}</dt>
              <dd className="lp-spec-value">{spec.value}</dd>
              <dd className="lp-spec-detail">{spec.detail}</dd>
            </div>
          ))}
        </dl>
        <ul className="lp-craft">
          {CRAFT_POINTS.map((point) => (
            <li key={point.title}>
              <h3 className="lp-craft-title">{point.title}</h3>
              <p>{point.text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
