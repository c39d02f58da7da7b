import type { VisitorTemplate } from '@flashbooth/contracts';
import { useState } from 'react';
import { LineIcon } from '@/components/ui/line-icon';
import { previewAspectRatio, printLabel } from '../booth-model';

interface TemplateCardProps {
  template: VisitorTemplate;
  onPick: (template: VisitorTemplate) => void;
}

/** One template as a button: preview at the template's ratio, its name and its print layout. */
export function TemplateCard({ template, onPick }: TemplateCardProps) {
  const [imageFailed, setImageFailed] = useState(false);
  const label = printLabel(template);
  const showImage = template.sample_s3_url !== null && !imageFailed;

  return (
    <button
      type="button"
      className="booth-card"
      data-testid="template-card"
      data-template-id={template.id}
      onClick={() => onPick(template)}
    >
      <span className="booth-card-stage">
        <span
          className={`booth-card-preview booth-card-preview-${template.orientation}`}
          style={{ aspectRatio: previewAspectRatio(template.orientation) }}
        >
          {showImage ? (
            <img
              src={template.sample_s3_url!}
              alt=""
              loading="lazy"
              decoding="async"
              onError={() => setImageFailed(true)}
            />
          ) : (
            <span className="booth-card-nosample" aria-hidden="true">
              <LineIcon size={26} strokeWidth={1.6}>
                <rect x="3" y="5" width="18" height="14" rx="2" />
                <circle cx="9" cy="10" r="1.8" />
                <path d="m21 16-5-5-9 8" />
              </LineIcon>
              No sample
            </span>
          )}
        </span>
      </span>
      <span className="booth-card-body">
        <span className="booth-card-name">{template.name}</span>
        <span className="visually-hidden">, </span>
        <span className="booth-card-print">
          <span className="booth-chip">{label.title}</span>
          {label.detail && (
            <>
              <span className="visually-hidden">, </span>
              <span className="booth-chip booth-chip-soft">{label.detail}</span>
            </>
          )}
        </span>
      </span>
    </button>
  );
}

/** A placeholder card while a page of templates loads. */
export function TemplateCardSkeleton({ portrait = false }: { portrait?: boolean }) {
  return (
    <div className="booth-card booth-card-skeleton" aria-hidden="true">
      <div className="booth-card-stage">
        <div
          className={`skeleton booth-card-preview booth-card-preview-${portrait ? 'portrait' : 'landscape'}`}
          style={{ aspectRatio: previewAspectRatio(portrait ? 'portrait' : 'landscape') }}
        />
      </div>
      <div className="booth-card-body">
        <div className="skeleton booth-skeleton-line" style={{ width: '70%' }} />
        <div className="skeleton booth-skeleton-line" style={{ width: '45%' }} />
      </div>
    </div>
  );
}
