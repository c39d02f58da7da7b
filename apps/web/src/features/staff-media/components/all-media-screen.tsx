import { MEDIA_LIBRARY_MESSAGES as M, STAFF_MEDIA_PAGE_SIZE } from '@flashbooth/contracts/rules';
import { type FormEvent, useState } from 'react';
import { Breadcrumbs } from '@/components/console/breadcrumbs';
import { PermissionGate } from '@/components/console/permission-gate';
import type { StaffPermissions } from '@/components/console/permissions';
import { useStaffPermissions } from '@/components/console/use-staff-permissions';
import type { StatusKind } from '@/components/ui/status-message';
import { useTimedStatus } from '@/components/ui/status-message';
import { Toast } from '@/components/ui/toast';
import { paths } from '@/config/paths';
import { usePagedView, useSearchPaging } from '@/hooks/use-search-paging';
import { allMediaQueryOptions, useAllMedia } from '../api/get-all-media';
import { type AllMediaFilters, readFilters, STAFF_MEDIA_STATUS_MS } from '../staff-media-model';
import { StaffMediaListPage } from './staff-media-list-page';

const TITLE = 'All Media';

const breadcrumbs = <Breadcrumbs items={[{ label: 'Admin' }, { label: TITLE }]} />;

/** The Org ID and Device ID filters (numeric, minimum 1) with Apply (staff spec sections 2, 5). */
function FilterForm({ onApply }: { onApply: (filters: AllMediaFilters) => void }) {
  const [orgId, setOrgId] = useState('');
  const [deviceId, setDeviceId] = useState('');
  const [errors, setErrors] = useState<{ orgId?: string; deviceId?: string }>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = readFilters(orgId, deviceId);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    onApply(result.filters);
  };
  const field = (
    id: string,
    label: string,
    value: string,
    setValue: (text: string) => void,
    error: string | undefined,
  ) => (
    <div className="field staff-media-filter">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="input"
        type="number"
        inputMode="numeric"
        min={1}
        step={1}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => setValue(event.target.value)}
      />
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
  return (
    <form className="staff-media-filters" aria-label="Filter media" noValidate onSubmit={submit}>
      {field('all-media-org-id', 'Org ID', orgId, setOrgId, errors.orgId)}
      {field('all-media-device-id', 'Device ID', deviceId, setDeviceId, errors.deviceId)}
      <button type="submit" className="btn btn-secondary staff-media-apply">
        Apply
      </button>
    </form>
  );
}

function AllMediaList({
  permissions,
  show,
  status,
}: {
  permissions: StaffPermissions;
  show: (kind: StatusKind, text: string) => void;
  status: ReturnType<typeof useTimedStatus>['status'];
}) {
  const paging = useSearchPaging();
  const { search, page, setPage } = paging;
  const [filters, setFilters] = useState<AllMediaFilters>({});
  const params = { search, page, ...filters };
  const media = useAllMedia(params);
  const { items, totalPages } = usePagedView(paging, media, STAFF_MEDIA_PAGE_SIZE);

  const apply = (next: AllMediaFilters) => {
    const same = next.orgId === filters.orgId && next.deviceId === filters.deviceId;
    setFilters(next);
    setPage(1);
    if (same && page === 1) void media.refetch();
  };

  return (
    <StaffMediaListPage
      title={TITLE}
      breadcrumbs={breadcrumbs}
      searchLabel="Search all media"
      listLabel="All media"
      paging={paging}
      query={media}
      queryKey={allMediaQueryOptions(params).queryKey}
      items={items}
      totalPages={totalPages}
      permissions={permissions}
      status={status}
      show={show}
      showRepostBadge
      loadFailed={M.loadAllMediaFailed}
      refusal={{
        thing: 'media',
        back: { href: paths.enterprise.organizations.getHref(), label: 'Back to Organizations' },
      }}
      emptyText={M.noMedia}
    >
      <FilterForm onApply={apply} />
    </StaffMediaListPage>
  );
}

/**
 * All Media (staff spec section 2): every item regardless of the repost flag, with the repost
 * badge, for super users and product admins (others see "You are not authorized to view this
 * page." and nothing is fetched; the server refuses them too).
 */
export function AllMediaScreen() {
  const { status, show } = useTimedStatus(STAFF_MEDIA_STATUS_MS);
  const permissions = useStaffPermissions(show);
  return (
    <PermissionGate
      permissions={permissions}
      action="media.viewAll"
      title={TITLE}
      breadcrumbs={breadcrumbs}
      after={<Toast status={status} ms={STAFF_MEDIA_STATUS_MS} />}
    >
      <AllMediaList permissions={permissions} show={show} status={status} />
    </PermissionGate>
  );
}
