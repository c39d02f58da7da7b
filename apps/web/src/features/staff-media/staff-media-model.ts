import type { StaffMediaItem } from '@flashbooth/contracts';
import {
  can,
  MEDIA_LIBRARY_MESSAGES as M,
  parseIdFilter,
  type StaffPrincipal,
} from '@flashbooth/contracts/rules';

/** Spec section 9: messages on the media views hide after 5 s. */
export const STAFF_MEDIA_STATUS_MS = 5000;
/** Spec section 9: 10 skeleton cards while a page loads. */
export const STAFF_MEDIA_SKELETONS = 10;

/** The All Media filters as applied (what the list query sends). */
export interface AllMediaFilters {
  orgId?: number | undefined;
  deviceId?: number | undefined;
}

export type FilterResult =
  | { ok: true; filters: AllMediaFilters }
  | { ok: false; errors: { orgId?: string; deviceId?: string } };

/** The Org ID and Device ID fields as typed → the filters to apply, or what is wrong with them. */
export function readFilters(orgIdText: string, deviceIdText: string): FilterResult {
  const orgId = parseIdFilter(orgIdText);
  const deviceId = parseIdFilter(deviceIdText);
  if (orgId.ok && deviceId.ok) {
    return { ok: true, filters: { orgId: orgId.value, deviceId: deviceId.value } };
  }
  return {
    ok: false,
    errors: {
      ...(orgId.ok ? {} : { orgId: M.orgIdInvalid }),
      ...(deviceId.ok ? {} : { deviceId: M.deviceIdInvalid }),
    },
  };
}

/** A card's "org, device" line (spec: Organization media cards). */
export function whereLine(item: Pick<StaffMediaItem, 'org_name' | 'device_name'>): string {
  return [item.org_name, item.device_name].filter(Boolean).join(', ') || 'Photobooth';
}

/** The owner's name, or a stand-in when the account has none. */
export function ownerName(item: Pick<StaffMediaItem, 'user_name'>): string {
  return item.user_name.trim() || 'Visitor';
}

/**
 * Whether the person may hide the item from the wall or show it again (beyond the spec):
 * privileged staff always; the admins of the organization whose booth made it.
 */
export function canModerate(
  principal: StaffPrincipal | undefined,
  item: Pick<StaffMediaItem, 'org_id'>,
): boolean {
  if (!principal) return false;
  if (item.org_id === null) return can(principal, 'media.viewAll');
  return can(principal, 'organization.moderate', item.org_id);
}

/**
 * Hide from wall is offered only for an item on the wall (its owner made it public); Show on
 * wall for a hidden one. The server refuses hiding anything else (409).
 */
export function wallAction(
  item: Pick<StaffMediaItem, 'is_public' | 'hidden_from_wall'>,
): 'hide' | 'show' | null {
  if (item.hidden_from_wall) return 'show';
  return item.is_public ? 'hide' : null;
}

/** Where a card's messages show (MessageTimer `at`): under its buttons. */
export const staffMessageAt = (id: number) => `staff-media-${id}`;
