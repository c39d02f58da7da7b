import type { StaffMediaItem, StaffMediaPage } from '@flashbooth/contracts';
import { MEDIA_LIBRARY_MESSAGES as M } from '@flashbooth/contracts/rules';
import type { QueryKey, UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { StaffPermissions } from '@/components/console/permissions';
import { isMobileUserAgent } from '@/components/media/media-files-model';
import { LoadFailure } from '@/components/console/load-failure';
import { EmptyPanel, ListBody } from '@/components/ui/list-states';
import { ListPage } from '@/components/ui/list-page';
import type { Status, StatusKind } from '@/components/ui/status-message';
import { Toast } from '@/components/ui/toast';
import type { useSearchPaging } from '@/hooks/use-search-paging';
import { canModerate, STAFF_MEDIA_SKELETONS, STAFF_MEDIA_STATUS_MS } from '../staff-media-model';
import { StaffMediaCard, StaffMediaCardSkeleton } from './staff-media-card';
import { useStaffMediaActions } from './use-staff-media-actions';
import '@/components/console/console.css';
import './staff-media.css';

const onMobile = typeof navigator !== 'undefined' && isMobileUserAgent(navigator.userAgent);

interface StaffMediaListPageProps {
  /** The screen's own, passed on to ListPage. */
  title: string;
  breadcrumbs: ReactNode;
  searchLabel: string;
  paging: ReturnType<typeof useSearchPaging>;
  totalPages: number;
  /** The list's query, and its key (Hide from wall updates the page on screen). */
  query: UseQueryResult<StaffMediaPage>;
  queryKey: QueryKey;
  /** The page on screen (usePagedView, called by the screen that owns the paging). */
  items: readonly StaffMediaItem[];
  listLabel: string;
  permissions: StaffPermissions;
  status: Status | null;
  /** Shows a message; `at` places it under a card's buttons. */
  show: (kind: StatusKind, text: string, at?: string) => void;
  /** All Media shows the repost badge; an organization's list holds only reposts allowed. */
  showRepostBadge: boolean;
  loadFailed: string;
  /** What the list belongs to and the way back, when it is refused or not there (403/404). */
  refusal: { thing: string; back: { href: string; label: string } };
  emptyText: string;
  /** Above the list (All Media's filters). */
  children?: ReactNode;
}

/**
 * The staff media views (staff spec section 2): search, the cards with Download HD, Share and
 * Hide from wall for moderators, their loading, error and empty states, page numbers and toast.
 */
export function StaffMediaListPage({
  query,
  queryKey,
  items,
  listLabel,
  permissions,
  status,
  show,
  showRepostBadge,
  loadFailed,
  refusal,
  emptyText,
  children,
  ...page
}: StaffMediaListPageProps) {
  const onFileAction = useStaffMediaActions(show);
  return (
    <ListPage
      {...page}
      className="console-page staff-media-page"
      query={query}
      searchPlaceholder={M.searchPlaceholder}
      pagesLabel="Media pages"
      after={<Toast status={status} ms={STAFF_MEDIA_STATUS_MS} />}
    >
      {children}
      <ListBody
        query={query}
        items={items}
        listClassName="card-grid staff-media-grid"
        listLabel={listLabel}
        itemKey={(item) => item.id}
        renderItem={(item) => (
          <StaffMediaCard
            item={item}
            canShare={onMobile}
            showRepostBadge={showRepostBadge}
            canModerate={canModerate(permissions.principal, item)}
            pageKey={queryKey}
            onFileAction={onFileAction}
            notify={show}
            status={status}
            statusMs={STAFF_MEDIA_STATUS_MS}
          />
        )}
        loadingLabel="Loading media…"
        skeletonCount={STAFF_MEDIA_SKELETONS}
        renderSkeleton={(index) => <StaffMediaCardSkeleton portrait={index % 2 === 1} />}
        error={
          <LoadFailure
            error={query.error}
            thing={refusal.thing}
            failedMessage={loadFailed}
            query={query}
            back={refusal.back}
          />
        }
        empty={
          <EmptyPanel className="console-panel">
            <p>{emptyText}</p>
          </EmptyPanel>
        }
      />
    </ListPage>
  );
}
