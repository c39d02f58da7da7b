import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { selfQueryOptions } from '@/api/users/get-self';
import type { StatusKind } from '@/components/ui/status-message';
import { PERMISSIONS_FAILED_MESSAGE, permissionsFrom, type StaffPermissions } from './permissions';

/**
 * The signed-in staff member's permissions, from GET users/self (staff spec section 6). When the
 * record fails to load, `notify` shows "Failed to get user permissions." (a screen that shows no
 * message there, like the template pages, passes none) and the permissions are empty.
 */
export function useStaffPermissions(
  notify?: (kind: StatusKind, text: string) => void,
): StaffPermissions {
  const self = useQuery(selfQueryOptions('enterprise'));
  const failedAt = self.isError ? self.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedAt && notify) notify('error', PERMISSIONS_FAILED_MESSAGE);
  }, [failedAt, notify]);
  const { data, isError, isPending } = self;
  return useMemo(() => permissionsFrom({ data, isError, isPending }), [data, isError, isPending]);
}
