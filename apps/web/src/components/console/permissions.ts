import type { User } from '@flashbooth/contracts';
import { can, type StaffAction, type StaffPrincipal } from '@flashbooth/contracts/rules';

/** Spec section 8: the message when the current user record does not load. */
export const PERMISSIONS_FAILED_MESSAGE = 'Failed to get user permissions.';

/** No flags, no organizations: what a person may do when their record did not load (spec 6). */
export const NO_PERMISSIONS: StaffPrincipal = Object.freeze({
  is_super_user: false,
  is_flashbooth_admin: false,
  organizations: Object.freeze([]),
});

export interface StaffPermissions {
  /** The user record has loaded (a failed load counts: its permissions are empty). */
  ready: boolean;
  /** Loading the record failed (spec: the toast, and empty permissions). */
  failed: boolean;
  /** The current user's id (a person may not edit their own role or remove themselves). */
  userId: number | null;
  principal: StaffPrincipal;
  /** The shared rule (`can` of @flashbooth/contracts/rules) for this person. */
  can: (action: StaffAction, orgId?: number) => boolean;
}

/**
 * The console's permissions from the users/self query (staff spec section 6): the record's flags
 * and organizations while it is there; nothing while it loads or when it failed.
 */
export function permissionsFrom(query: {
  data?: Pick<User, 'id' | 'is_super_user' | 'is_flashbooth_admin' | 'organizations'> | undefined;
  isError: boolean;
  isPending: boolean;
}): StaffPermissions {
  const user = query.isError ? undefined : query.data;
  const principal: StaffPrincipal = user
    ? {
        is_super_user: user.is_super_user,
        is_flashbooth_admin: user.is_flashbooth_admin,
        organizations: user.organizations ?? [],
      }
    : NO_PERMISSIONS;
  return {
    ready: !query.isPending || query.isError,
    failed: query.isError,
    userId: user?.id ?? null,
    principal,
    can: (action, orgId) => can(principal, action, orgId),
  };
}
