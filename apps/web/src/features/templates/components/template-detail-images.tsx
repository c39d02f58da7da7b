import type { TemplateImage } from '@flashbooth/contracts';
import { canvasSize } from '@flashbooth/contracts/rules';
import { useRef, useState } from 'react';
import type { TemplateImageKind } from '@/api/templates/upload-template-image';
import { Dialog } from '@/components/ui/dialog';
import { slotPercentBox } from '../template-detail-model';

interface EnlargeableImageProps {
  kind: TemplateImageKind;
  url: string | null;
  orientation: 'portrait' | 'landscape';
  name: string;
  /** The template's slots: the foreground is drawn over them as the print draws it. */
  slots?: readonly Pick<TemplateImage, 'x' | 'y' | 'w' | 'h'>[];
}

const LABEL = { sample: 'Sample', foreground: 'Foreground' } as const;

interface AsPrintedProps {
  url: string;
  orientation: 'portrait' | 'landscape';
  slots: readonly Pick<TemplateImage, 'x' | 'y' | 'w' | 'h'>[];
  alt: string;
  className?: string;
}

/**
 * The foreground drawn exactly as packages/print-composition draws the print (issue 38, item 1):
 * a white canvas of the orientation's shape, a numbered stand-in photo in each slot (placed in
 * percent of the canvas), and the foreground stretched over the whole canvas on top. A photo
 * shows here exactly where it shows on the print; a foreground of another shape is stretched
 * here as it is there, never letterboxed.
 */
export function ForegroundAsPrinted({ url, orientation, slots, alt, className }: AsPrintedProps) {
  const canvas = canvasSize(orientation);
  return (
    <span
      className={`template-print ${className ?? ''}`}
      style={{ aspectRatio: `${canvas.width} / ${canvas.height}` }}
      data-testid="template-print"
    >
      {slots.map((slot, index) => (
        <span
          // Slots are listed in order and have no other identity here.
          key={index}
          className="template-print-slot"
          style={slotPercentBox(slot, canvas)}
          aria-hidden="true"
          data-testid={`template-print-slot-${index + 1}`}
        >
          {index + 1}
        </span>
      ))}
      <img className="template-print-foreground" src={url} alt={alt} loading="lazy" />
    </span>
  );
}

/** A template image that enlarges full-screen on click (an accessible dialog; Esc closes). */
export function EnlargeableImage({
  kind,
  url,
  orientation,
  name,
  slots = [],
}: EnlargeableImageProps) {
  const [open, setOpen] = useState(false);
  const label = `${LABEL[kind]} image`;
  const shape = `template-image template-image-${kind} template-image-${orientation}`;
  if (!url) {
    return (
      <div className={`${shape} template-image-empty`} data-testid={`template-${kind}`}>
        No {kind}
      </div>
    );
  }
  return (
    <>
      <button
        type="button"
        className={`${shape} template-image-button`}
        onClick={() => setOpen(true)}
        aria-label={`Enlarge the ${kind} image of ${name}`}
        data-testid={`template-${kind}`}
      >
        {kind === 'foreground' ? (
          <ForegroundAsPrinted url={url} orientation={orientation} slots={slots} alt="" />
        ) : (
          <img src={url} alt="" loading="lazy" />
        )}
      </button>
      <Dialog
        open={open}
        title={`${label} — ${name}`}
        onClose={() => setOpen(false)}
        className="template-lightbox"
      >
        {kind === 'foreground' ? (
          <ForegroundAsPrinted
            url={url}
            orientation={orientation}
            slots={slots}
            alt={`${label} of ${name}`}
            className={`template-lightbox-print template-lightbox-print-${orientation}`}
          />
        ) : (
          <img className="template-lightbox-image" src={url} alt={`${label} of ${name}`} />
        )}
        <div className="dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={() => setOpen(false)}>
            Close
          </button>
        </div>
      </Dialog>
    </>
  );
}

interface UploadButtonProps {
  kind: TemplateImageKind;
  disabled: boolean;
  /** 0–100 while this upload runs, else null. */
  progress: number | null;
  onFile: (file: File) => void;
}

/** "Upload Sample" / "Upload Foreground": a file picker behind a button, with its progress. */
export function UploadButton({ kind, disabled, progress, onFile }: UploadButtonProps) {
  const input = useRef<HTMLInputElement>(null);
  const running = progress !== null;
  return (
    <div className="template-upload">
      <button
        type="button"
        className="btn btn-secondary"
        disabled={disabled}
        onClick={() => input.current?.click()}
      >
        {running ? `Uploading… ${progress}%` : `Upload ${LABEL[kind]}`}
      </button>
      <input
        ref={input}
        type="file"
        accept={kind === 'foreground' ? 'image/png' : 'image/png,image/jpeg'}
        className="visually-hidden"
        tabIndex={-1}
        aria-label={`Choose a ${kind} image`}
        disabled={disabled}
        data-testid={`upload-${kind}`}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) onFile(file);
        }}
      />
      {running && (
        <progress
          className="template-upload-progress"
          max={100}
          value={progress}
          aria-label={`${LABEL[kind]} upload`}
        />
      )}
    </div>
  );
}
