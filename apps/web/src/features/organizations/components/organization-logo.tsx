import { ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';

/** An organization's logo, or the "No logo" placeholder (cards and the detail page). */
export function OrganizationLogo({
  name,
  url,
  className = '',
}: {
  name: string;
  url: string | null;
  className?: string;
}) {
  return url ? (
    <img className={`org-logo ${className}`} src={url} alt={`${name} logo`} loading="lazy" />
  ) : (
    <span className={`org-logo org-logo-none ${className}`}>{ORGANIZATION_MESSAGES.noLogo}</span>
  );
}
