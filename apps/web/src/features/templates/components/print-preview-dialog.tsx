import { useEffect, useState } from 'react';
import { Dialog } from '@/components/ui/dialog';

interface PrintPreviewDialogProps {
  open: boolean;
  image: Blob | null;
  pending: boolean;
  error: string | null;
  isCut: boolean;
  orientation: 'portrait' | 'landscape';
  onClose: () => void;
}

/**
 * The true print preview: the JPEG the server composed with the booth's own code. A cut print
 * shows where the printer cuts it into two strips (a guide over the image, not in it).
 */
export function PrintPreviewDialog({
  open,
  image,
  pending,
  error,
  isCut,
  orientation,
  onClose,
}: PrintPreviewDialogProps) {
  // Read as a data URL in a callback (no object URL to revoke); shown only for the current image.
  const [read, setRead] = useState<{ image: Blob; url: string } | null>(null);
  useEffect(() => {
    if (!image) return;
    const reader = new FileReader();
    reader.onload = () => {
      if (typeof reader.result === 'string') setRead({ image, url: reader.result });
    };
    reader.readAsDataURL(image);
    return () => reader.abort();
  }, [image]);
  const url = image && read?.image === image ? read.url : null;

  return (
    <Dialog open={open} title="Print preview" onClose={onClose} className="print-preview-dialog">
      {pending && (
        <p className="print-preview-state" role="status">
          <span className="spinner spinner-sm" aria-hidden="true" /> Composing the print…
        </p>
      )}
      {!pending && error && (
        <p className="status status-error" role="alert">
          {error}
        </p>
      )}
      {!pending && !error && image && !url && (
        <p className="print-preview-state" role="status">
          Opening the preview…
        </p>
      )}
      {!pending && !error && url && (
        <figure className={`print-preview print-preview-${orientation}`}>
          <div className="print-preview-frame">
            <img src={url} alt="The print as a booth will compose it, with sample photos" />
            {isCut && <span className="print-preview-cut" aria-hidden="true" />}
          </div>
          <figcaption className="field-hint">
            Composed by the booth&apos;s own print code with sample photos
            {isCut ? '; the dashed line shows where the printer cuts the two strips.' : '.'}
          </figcaption>
        </figure>
      )}
      <div className="dialog-actions">
        <button type="button" className="btn btn-secondary" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
