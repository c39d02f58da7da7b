import type { Guest } from '@flashbooth/contracts';
import { GUESTS_PAGE_SIZE, ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { useState } from 'react';
import { Breadcrumbs } from '@/components/console/breadcrumbs';
import { CardSkeleton } from '@/components/console/card-skeleton';
import { useStaffPermissions } from '@/components/console/use-staff-permissions';
import { LineIcon } from '@/components/ui/line-icon';
import { LoadFailure } from '@/components/console/load-failure';
import { ConsoleList } from '@/components/console/console-list';
import { ListPage } from '@/components/ui/list-page';
import { useTimedStatus } from '@/components/ui/status-message';
import { Toast } from '@/components/ui/toast';
import { paths } from '@/config/paths';
import { usePagedView, useSearchPaging } from '@/hooks/use-search-paging';
import { useExportGuests } from '../api/export-guests';
import { useGuests } from '../api/get-guests';
import { useOrganization } from '@/api/organizations/get-organization';
import { errorText } from '@/lib/error-text';
import { useErasePerson } from '../api/person-privacy';
import { erasedText, GUEST_PRIVACY_TEXT } from '../guest-privacy-model';
import {
  ORGANIZATION_SCREEN_TEXT,
  ORGANIZATION_STATUS_MS,
  organizationTitle,
  orNotAvailable,
} from '../organizations-model';
import { GuestCard } from './guest-card';
import { GuestEraseDialog, GuestExportDialog } from './guest-privacy-dialogs';
import '@/components/console/console.css';
import './organizations.css';

const M = ORGANIZATION_MESSAGES;

/**
 * Organization guests (staff spec section 2), plus the CSV export of the list as searched for the
 * organization's admins and privileged staff.
 */
export function OrganizationGuestsScreen({ orgId }: { orgId: number }) {
  const { status, show } = useTimedStatus(ORGANIZATION_STATUS_MS);
  const permissions = useStaffPermissions(show);
  const organization = useOrganization(orgId);
  const paging = useSearchPaging();
  const { search, page } = paging;
  const guests = useGuests(orgId, search, page);
  const { items, totalPages } = usePagedView(paging, guests, GUESTS_PAGE_SIZE);
  const exportCsv = useExportGuests(orgId);

  const orgName = organizationTitle(organization.isError ? undefined : organization.data);
  const canExport = permissions.can('organization.exportGuests', orgId);
  // A person's data export and erasure on their request: super users only (the server enforces).
  const canHandleRequests = permissions.principal?.is_super_user === true;
  const [exporting, setExporting] = useState<Guest | null>(null);
  const [erasing, setErasing] = useState<Guest | null>(null);
  const erase = useErasePerson(orgId);
  const confirmErase = () => {
    if (!erasing) return;
    const name = orNotAvailable(erasing.name);
    erase.mutate(erasing.id, {
      onSuccess: (result) => show('success', erasedText(name, result)),
      onError: (error) => show('error', errorText(error, GUEST_PRIVACY_TEXT.eraseFailed)),
      onSettled: () => setErasing(null),
    });
  };

  return (
    <ListPage
      className="console-page"
      title={`${orgName} Guests`}
      breadcrumbs={
        <Breadcrumbs
          items={[
            { label: 'Organizations', href: paths.enterprise.organizations.getHref() },
            { label: orgName, href: paths.enterprise.organization.getHref(orgId) },
            { label: 'Guests' },
          ]}
        />
      }
      actions={
        canExport && (
          <button
            type="button"
            className="btn btn-secondary"
            disabled={exportCsv.isPending}
            aria-busy={exportCsv.isPending || undefined}
            onClick={() =>
              exportCsv.mutate(
                { search, orgName },
                {
                  onSuccess: (file) => show('success', ORGANIZATION_SCREEN_TEXT.exported(file)),
                  onError: (error) => show('error', errorText(error, M.exportGuestsFailed)),
                },
              )
            }
          >
            <LineIcon size={18}>
              <path d="M12 4v11" />
              <path d="m7 10 5 5 5-5" />
              <path d="M5 20h14" />
            </LineIcon>
            {exportCsv.isPending ? 'Preparing CSV...' : 'Download CSV'}
          </button>
        )
      }
      paging={paging}
      query={guests}
      searchLabel="Search guests"
      searchPlaceholder={M.searchGuests}
      totalPages={totalPages}
      pagesLabel="Guest pages"
      after={<Toast status={status} ms={ORGANIZATION_STATUS_MS} />}
    >
      <ConsoleList
        query={guests}
        items={items}
        listLabel={`${orgName} guests`}
        itemKey={(guest) => guest.id}
        renderItem={(guest) => (
          <GuestCard
            guest={guest}
            privacy={
              canHandleRequests
                ? {
                    onExport: () => setExporting(guest),
                    onErase: () => setErasing(guest),
                    busy: erase.isPending,
                  }
                : undefined
            }
          />
        )}
        loadingLabel="Loading guests…"
        renderSkeleton={() => <CardSkeleton />}
        failed={
          <LoadFailure
            error={guests.error}
            thing="organization"
            failedMessage={M.loadGuestsFailed}
            query={guests}
            back={{
              href: paths.enterprise.organizations.getHref(),
              label: 'Back to Organizations',
            }}
          />
        }
        empty={M.noGuests}
      />
      {exporting && <GuestExportDialog guest={exporting} onClose={() => setExporting(null)} />}
      {erasing && (
        <GuestEraseDialog
          guest={erasing}
          busy={erase.isPending}
          onConfirm={confirmErase}
          onCancel={() => setErasing(null)}
        />
      )}
    </ListPage>
  );
}
