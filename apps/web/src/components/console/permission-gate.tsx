import type { StaffAction } from '@flashbooth/contracts/rules';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { ConsolePage } from './console-page';
import type { StaffPermissions } from './permissions';
import './console.css';

/** Spec section 8: what a person who may not open a restricted screen sees. */
export const NOT_AUTHORIZED_MESSAGE = 'You are not authorized to view this page.';

interface PermissionGateProps {
  permissions: StaffPermissions;
  action: StaffAction;
  /** The screen's title, shown while the permissions load and to those refused. */
  title: string;
  className?: string;
  breadcrumbs?: ReactNode;
  /** After the content (the screen's Toast, which says when the permissions failed to load). */
  after?: ReactNode;
  /** The screen itself: mounted only for those allowed, so nothing of it is fetched for others. */
  children: ReactNode;
}

/**
 * A screen only some staff may open (software channels and releases: super users and product
 * admins). Until the user record has loaded it shows a spinner; then either the screen or
 * "You are not authorized to view this page." — the screen is never mounted for others, so its
 * queries never run (spec: "no data is fetched"). The server refuses them as well.
 */
export function PermissionGate({
  permissions,
  action,
  title,
  className = 'console-narrow',
  breadcrumbs,
  after,
  children,
}: PermissionGateProps) {
  if (permissions.ready && permissions.can(action)) return <>{children}</>;
  return (
    <ConsolePage className={className} breadcrumbs={breadcrumbs} title={title} after={after}>
      {permissions.ready ? (
        <div className="card panel-message console-panel not-authorized" role="alert">
          <p>{NOT_AUTHORIZED_MESSAGE}</p>
          {/* A refusal offers the way back, never a retry (as LoadFailure). */}
          <Link className="btn btn-secondary" to={paths.enterprise.organizations.getHref()}>
            ← Back to Organizations
          </Link>
        </div>
      ) : (
        <div className="card panel-message console-panel">
          <Spinner label="Checking your permissions…" />
        </div>
      )}
    </ConsolePage>
  );
}
