import type { VisitorTemplate } from '@flashbooth/contracts';
import { useState } from 'react';
import { LineIcon } from '@/components/ui/line-icon';
import { captureKindBadge, motionPrintText, previewAspectRatio, printLabel } from '../booth-model';

interface TemplateCardProps {
  template: VisitorTemplate;
  onPick: (template: VisitorTemplate) => void;
}

/**
 * One template as a button: preview at the template's ratio with its capture kind's badge, its
 * name, and its print layout (a photo) or what it makes and whether a print comes with it (a
 * motion kind).
 */
export function TemplateCard({ template, onPick }: TemplateCardProps) {
  const [imageFailed, setImageFailed] = useState(false);
  const label = printLabel(template);
  const kind = captureKindBadge(template.capture_kind);
  const showImage = template.sample_s3_url !== null && !imageFailed;

  return (
    <button
      type="button"
      className="booth-card"
      data-testid="template-card"
      data-template-id={template.id}
      data-capture-kind={template.capture_kind}
      onClick={() => onPick(template)}
    >
      <span className="booth-card-stage">
        {/* Named in the card's text below; the badge is what the eye finds first. */}
        <span
          className={`booth-kind-badge booth-kind-badge-${template.capture_kind}`}
          aria-hidden="true"
          data-testid="capture-kind-badge"
        >
          {kind.motion && <span className="booth-kind-dot" />}
          {kind.label}
        </span>
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
              // A motion kind's sample moves like what it makes (forward and back, in steps, a
              // slow push-in); held still for reduced motion by the stylesheet.
              className={
                kind.motion ? `booth-motion booth-motion-${template.capture_kind}` : undefined
              }
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
          {kind.detail ? (
            <>
              <span className="visually-hidden">{kind.label}: </span>
              <span className="booth-chip booth-chip-motion">{kind.detail}</span>
              <span className="visually-hidden">, </span>
              <span className="booth-chip booth-chip-soft" data-testid="motion-print">
                {motionPrintText(template.motion_prints)}
              </span>
            </>
          ) : (
            <>
              <span className="visually-hidden">{kind.label}: </span>
              <span className="booth-chip">{label.title}</span>
              {label.detail && (
                <>
                  <span className="visually-hidden">, </span>
                  <span className="booth-chip booth-chip-soft">{label.detail}</span>
                </>
              )}
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
