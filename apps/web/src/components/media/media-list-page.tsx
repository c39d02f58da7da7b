import { type QueryKey, type UseQueryResult, useQueryClient } from '@tanstack/react-query';
import { type ComponentType, type ReactNode, useEffect } from 'react';
import { LineIcon } from '@/components/ui/line-icon';
import { ListBody } from '@/components/ui/list-states';
import { ListPage } from '@/components/ui/list-page';
import { useTimedStatus } from '@/components/ui/status-message';
import { Toast } from '@/components/ui/toast';
import { usePagedView, type useSearchPaging } from '@/hooks/use-search-paging';
import './media-list-page.css';

/** One page of a visitor's media list (My Media, the wall), as the API answers it. */
interface MediaListData<T> {
  items: T[];
  total_count: number;
}

/**
 * The state of a visitor's media list: the page on screen, a toast that also says when a load
 * failed (the list then shows its empty state), and changes to one item of that page.
 */
export function useMediaList<T extends { id: number }>(
  paging: ReturnType<typeof useSearchPaging>,
  query: UseQueryResult<MediaListData<T>>,
  queryKey: QueryKey,
  { pageSize, statusMs, loadFailed }: { pageSize: number; statusMs: number; loadFailed: string },
) {
  const queryClient = useQueryClient();
  const { status, show } = useTimedStatus(statusMs);
  const { items, totalPages } = usePagedView(paging, query, pageSize);
  const failedAt = query.isError ? query.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedAt) show('error', loadFailed);
  }, [failedAt, show, loadFailed]);

  /** Changes one item in the page on screen (optimistic toggles, saved captions, likes). */
  const patchItem = (id: number, change: Partial<T>) => {
    // A reload already on its way could bring back the old value over the optimistic one.
    void queryClient.cancelQueries({ queryKey, exact: true });
    queryClient.setQueryData<MediaListData<T>>(queryKey, (current) =>
      current
        ? {
            ...current,
            items: current.items.map((item) => (item.id === id ? { ...item, ...change } : item)),
          }
        : current,
    );
  };

  return { paging, query, items, totalPages, status, statusMs, show, patchItem };
}

interface MediaListPageProps<T extends { id: number }> {
  list: ReturnType<typeof useMediaList<T>>;
  /** The screen's own class (its width). */
  className: string;
  title: string;
  /** The search box's label and placeholder. */
  searchLabel: string;
  pagesLabel: string;
  /** A placeholder card; every other one is portrait, as prints come. */
  Skeleton: ComponentType<{ portrait: boolean }>;
  /** What an empty list (or one that failed to load) says. */
  emptyText: string;
  /** The wall announces its empty state to screen readers. */
  emptyRole?: 'status';
  /** The rest is ListBody's: "card-grid" plus the screen's columns. */
  listClassName: string;
  listLabel: string;
  renderItem: (item: T) => ReactNode;
  /** Beside the title (the signed-out wall's Sign in). */
  actions?: ReactNode;
  loadingLabel: string;
  skeletonCount: number;
}

/**
 * A visitor's media screen (My Media, the wall): search, the cards with their skeletons and
 * empty state, page numbers and the toast.
 */
export function MediaListPage<T extends { id: number }>({
  list,
  className,
  title,
  searchLabel,
  pagesLabel,
  Skeleton,
  emptyText,
  emptyRole,
  actions,
  ...body
}: MediaListPageProps<T>) {
  return (
    <ListPage
      className={className}
      title={title}
      paging={list.paging}
      query={list.query}
      searchLabel={searchLabel}
      searchPlaceholder={searchLabel}
      totalPages={list.totalPages}
      pagesLabel={pagesLabel}
      actions={actions}
      after={<Toast status={list.status} ms={list.statusMs} />}
    >
      <ListBody
        {...body}
        query={list.query}
        items={list.items}
        itemKey={(item) => item.id}
        renderSkeleton={(index) => <Skeleton portrait={index % 2 === 1} />}
        empty={
          <div className="media-empty" role={emptyRole}>
            <span className="media-empty-icon" aria-hidden="true">
              <LineIcon size={26} strokeWidth={1.8}>
                <rect x="3" y="4" width="18" height="16" rx="3" />
                <circle cx="9" cy="10" r="2" />
                <path d="m21 16-5-5-9 9" />
              </LineIcon>
            </span>
            <p>{emptyText}</p>
          </div>
        }
      />
    </ListPage>
  );
}
