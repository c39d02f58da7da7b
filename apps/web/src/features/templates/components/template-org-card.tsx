import type { TemplateOrganization } from '@flashbooth/contracts';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { orgLabel, TEMPLATE_TEXT } from '../templates-model';

interface TemplateOrgCardProps {
  org: TemplateOrganization;
  /** Remove: super users and product admins only. */
  canRemove: boolean;
  busy: boolean;
  onRemove: () => void;
}

/** An organization offering the template: logo or "No logo", name or "Org {id}", ID. */
export function TemplateOrgCard({ org, canRemove, busy, onRemove }: TemplateOrgCardProps) {
  const label = orgLabel(org);
  return (
    <article
      className="card console-card"
      data-testid="template-org-card"
      aria-busy={busy || undefined}
    >
      <div className="template-org-head">
        {org.logo_s3_url ? (
          <img
            className="template-org-logo"
            src={org.logo_s3_url}
            alt={`${label} logo`}
            loading="lazy"
          />
        ) : (
          <span className="template-org-logo template-org-logo-none">{TEMPLATE_TEXT.noLogo}</span>
        )}
        <div className="template-org-text">
          <h3 className="console-card-title">
            <Link to={paths.enterprise.organization.getHref(org.id)}>{label}</Link>
          </h3>
          <span className="template-org-meta">ID {org.id}</span>
        </div>
      </div>
      {canRemove && (
        <div className="console-card-actions">
          <button
            type="button"
            className="btn btn-secondary btn-danger-outline"
            onClick={onRemove}
            disabled={busy}
            aria-label={`Remove ${label}`}
          >
            Remove
          </button>
        </div>
      )}
    </article>
  );
}

export function TemplateOrgCardSkeleton() {
  return (
    <div className="card console-card template-org-skeleton" aria-hidden="true">
      <div className="template-org-head">
        <span className="template-org-logo skeleton" />
        <span className="template-org-text" style={{ flex: 1 }}>
          <span className="skeleton skeleton-line" style={{ width: '70%' }} />
          <span className="skeleton skeleton-line" style={{ width: '30%', marginTop: 8 }} />
        </span>
      </div>
    </div>
  );
}
