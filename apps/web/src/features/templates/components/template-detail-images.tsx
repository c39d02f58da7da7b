import { useRef, useState } from 'react';
import type { TemplateImageKind } from '@/api/templates/upload-template-image';
import { Dialog } from '@/components/ui/dialog';

interface EnlargeableImageProps {
  kind: TemplateImageKind;
  url: string | null;
  orientation: 'portrait' | 'landscape';
  name: string;
}

const LABEL = { sample: 'Sample', foreground: 'Foreground' } as const;

/** A template image that enlarges full-screen on click (an accessible dialog; Esc closes). */
export function EnlargeableImage({ kind, url, orientation, name }: EnlargeableImageProps) {
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
        <img src={url} alt="" loading="lazy" />
      </button>
      <Dialog
        open={open}
        title={`${label} — ${name}`}
        onClose={() => setOpen(false)}
        className="template-lightbox"
      >
        <img className="template-lightbox-image" src={url} alt={`${label} of ${name}`} />
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
        accept="image/png,image/jpeg"
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
