import type { Template } from '@flashbooth/contracts';
import { CAPTURE_KIND_LABELS } from '@flashbooth/contracts/rules';
import type { CSSProperties } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { cardLayout, TEMPLATE_TEXT } from '../templates-model';

/**
 * A template in the grid: its sample (or "No sample") at the orientation's shape and its name;
 * the whole card opens the detail. Landscape cards span two columns.
 */
export function TemplateCard({ template }: { template: Template }) {
  const layout = cardLayout(template.orientation);
  return (
    <Link
      to={paths.enterprise.template.getHref(template.id)}
      className="card template-card"
      data-testid="template-card"
      data-orientation={template.orientation}
      data-span={layout.span}
    >
      <span
        className="template-card-sample"
        style={{ aspectRatio: layout.aspectRatio } as CSSProperties}
      >
        {template.sample_s3_url ? (
          <img src={template.sample_s3_url} alt="" loading="lazy" />
        ) : (
          <span className="template-card-none">{TEMPLATE_TEXT.noSample}</span>
        )}
      </span>
      <span className="template-card-name">{template.name}</span>
      <span className="template-card-meta">
        {template.orientation === 'landscape' ? 'Landscape' : 'Portrait'}
        {template.capture_kind !== 'photo' && ` · ${CAPTURE_KIND_LABELS[template.capture_kind]}`} ·
        ID {template.id}
      </span>
    </Link>
  );
}

/** A placeholder while the list loads (alternating shapes, like a real page). */
export function TemplateCardSkeleton({ index }: { index: number }) {
  const orientation = index % 3 === 0 ? 'landscape' : 'portrait';
  const layout = cardLayout(orientation);
  return (
    <div
      className="card template-card"
      aria-hidden="true"
      data-orientation={orientation}
      data-span={layout.span}
    >
      <span className="template-card-sample skeleton" style={{ aspectRatio: layout.aspectRatio }} />
      <span className="skeleton skeleton-line" style={{ width: '70%' }} />
    </div>
  );
}
