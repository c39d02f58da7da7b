import type { Organization } from '@flashbooth/contracts';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { OrganizationLogo } from './organization-logo';

/** Your Organizations: logo or "No logo" and the name; the whole card opens the detail. */
export function OrganizationCard({ organization }: { organization: Organization }) {
  return (
    <Link
      to={paths.enterprise.organization.getHref(organization.id)}
      className="card console-card org-card"
      data-testid="organization-card"
    >
      <OrganizationLogo name={organization.name} url={organization.logo_s3_url} />
      <span className="org-card-text">
        <span className="console-card-title">{organization.name}</span>
        <span className="org-card-meta">ID {organization.id}</span>
      </span>
      <span className="org-card-arrow" aria-hidden="true">
        ›
      </span>
    </Link>
  );
}

export function OrganizationCardSkeleton() {
  return (
    <div className="card console-card org-card" aria-hidden="true">
      <span className="org-logo skeleton" />
      <span className="org-card-text">
        <span className="skeleton skeleton-line" style={{ width: '70%' }} />
        <span className="skeleton skeleton-line" style={{ width: '30%', marginTop: 8 }} />
      </span>
    </div>
  );
}
