const STEPS = [
  {
    title: 'Scan the booth',
    text: 'Guests scan the QR code on the booth with their phone camera and sign in with their mobile number. Nothing to download.',
  },
  {
    title: 'Pick a template',
    text: 'They choose from your branded layouts — a single hero shot, a classic strip or a group collage.',
  },
  {
    title: 'Strike a pose',
    text: 'A friendly 10-second countdown on the 32-inch screen gives everyone time to squeeze into the frame.',
  },
  {
    title: 'Print and share',
    text: 'The print is in their hands in about 12 seconds, and the digital copy is on their phone to download and share.',
  },
];

export function ExperienceSection() {
  return (
    <section
      id="experience"
      className="lp-section lp-section-dark"
      aria-labelledby="experience-title"
    >
      <div className="lp-container">
        <div className="lp-section-head">
          <p className="lp-eyebrow lp-eyebrow-inverse">Guest experience</p>
          <h2 id="experience-title" className="lp-section-title">
            Four taps from hello to keepsake
          </h2>
          <p className="lp-section-lede">
            Flashbooth is fully self-service. Guests of every age get it on the first try, and your
            team never has to step in.
          </p>
        </div>
        <ol className="lp-steps">
          {STEPS.map((step, i) => (
            <li key={step.title} className="lp-step">
              <span className="lp-step-number" aria-hidden="true">
                {String(i + 1).padStart(2, '0')}
              </span>
              <h3 className="lp-step-title">{step.title}</h3>
              <p className="lp-step-text">{step.text}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
