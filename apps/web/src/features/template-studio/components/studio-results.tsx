import { outputSizes, type StudioResult } from '../template-studio-model';

const kb = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** The two outputs side by side (stacked on a phone): the overlay on a checkerboard, the sample. */
export function StudioResults({
  result,
  overlayUrl,
  sampleUrl,
}: {
  result: StudioResult;
  /** Object URLs of the overlay preview and the sample (the screen owns and frees them). */
  overlayUrl: string;
  sampleUrl: string;
}) {
  const sizes = outputSizes(result.layout);
  const portrait = sizes.png.height > sizes.png.width;
  return (
    <div className={`studio-results ${portrait ? 'studio-results-portrait' : ''}`}>
      <figure className="studio-output">
        <div className="studio-preview studio-checkerboard">
          <img
            src={overlayUrl}
            alt={`PNG overlay preview: your design with ${result.layout}'s photo openings and QR code`}
            data-testid="studio-png-preview"
          />
        </div>
        <figcaption>
          <strong>PNG overlay</strong> · {sizes.png.width}×{sizes.png.height} ·{' '}
          {kb(result.png.size)}
        </figcaption>
      </figure>
      <figure className="studio-output">
        <div className="studio-preview">
          <img
            src={sampleUrl}
            alt="JPG sample preview: sample photos in the openings behind the overlay"
            data-testid="studio-jpg-preview"
          />
        </div>
        <figcaption>
          <strong>JPG sample</strong> · {sizes.jpg.width}×{sizes.jpg.height} · {kb(result.jpg.size)}
        </figcaption>
      </figure>
    </div>
  );
}
