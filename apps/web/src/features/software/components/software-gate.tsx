import type { ReactNode } from 'react';
import { PermissionGate } from '@/components/console/permission-gate';
import { useStaffPermissions } from '@/components/console/use-staff-permissions';
import { useTimedStatus } from '@/components/ui/status-message';
import { Toast } from '@/components/ui/toast';
import { SOFTWARE_STATUS_MS } from '../software-model';

/**
 * The software screens' access rule (staff spec section 2): super users and product admins only
 * (`software.manage`); everyone else sees "You are not authorized to view this page." and the
 * screen, with its queries, is never mounted.
 */
export function SoftwareGate({ title, children }: { title: string; children: ReactNode }) {
  const { status, show } = useTimedStatus(SOFTWARE_STATUS_MS);
  const permissions = useStaffPermissions(show);
  return (
    <PermissionGate
      permissions={permissions}
      action="software.manage"
      title={title}
      after={<Toast status={status} ms={SOFTWARE_STATUS_MS} />}
    >
      {children}
    </PermissionGate>
  );
}
