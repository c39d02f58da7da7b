import type { Media, WallPage } from '@flashbooth/contracts';
import { WALL_PAGE_SIZE } from '@flashbooth/contracts/rules';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { LineIcon } from '@/components/ui/line-icon';
import { ListBody } from '@/components/ui/list-states';
import { ListPage } from '@/components/ui/list-page';
import { useTimedStatus } from '@/components/ui/status-message';
import { Toast } from '@/components/ui/toast';
import { usePagedView, useSearchPaging } from '@/hooks/use-search-paging';
import { publicMediaQueryOptions, usePublicMedia } from '../api/get-public-media';
import { setLiked } from '../api/toggle-like';
import { WALL_MESSAGES, WALL_STATUS_MS, likeToggle, type LikeView } from '../wall-model';
import { WallCard, WallCardSkeleton } from './wall-card';
import './wall.css';

/** The public wall (spec: visitor.md "Wall (public)", sections 4, 7, 8 and 9). */
export function WallScreen() {
  const queryClient = useQueryClient();
  const paging = useSearchPaging();
  const { search, page } = paging;
  const wall = usePublicMedia(search, page);
  const { status, show } = useTimedStatus(WALL_STATUS_MS);
  const { items, totalPages } = usePagedView(paging, wall, WALL_PAGE_SIZE);
  const failedAt = wall.isError ? wall.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedAt) show('error', WALL_MESSAGES.loadFailed);
  }, [failedAt, show]);

  const key = publicMediaQueryOptions({ search, page }).queryKey;
  const patchLike = (id: number, like: LikeView) => {
    // A reload already on its way could bring back the old count over the optimistic one.
    void queryClient.cancelQueries({ queryKey: key, exact: true });
    queryClient.setQueryData<WallPage>(key, (current) =>
      current
        ? {
            ...current,
            items: current.items.map((item) => (item.id === id ? { ...item, ...like } : item)),
          }
        : current,
    );
  };

  /** Spec: a like toggles at once with its count and reverts when the call fails. */
  const onLike = async (item: Media) => {
    const toggle = likeToggle(item);
    patchLike(item.id, toggle.optimistic);
    try {
      const answer = await setLiked(item.id, toggle.optimistic.is_liked_by_caller);
      patchLike(item.id, toggle.settled(answer));
    } catch {
      patchLike(item.id, toggle.reverted());
      show('error', WALL_MESSAGES.likeFailed);
    }
  };

  return (
    <ListPage
      className="wall-page"
      title="Wall"
      paging={paging}
      query={wall}
      searchLabel="Search the wall"
      searchPlaceholder="Search the wall"
      totalPages={totalPages}
      pagesLabel="Wall pages"
      after={<Toast status={status} ms={WALL_STATUS_MS} />}
    >
      <ListBody
        query={wall}
        items={items}
        listClassName="card-grid wall-grid"
        listLabel="Public media"
        itemKey={(item) => item.id}
        renderItem={(item) => <WallCard media={item} onLike={onLike} notify={show} />}
        loadingLabel="Loading the wall…"
        skeletonCount={3}
        renderSkeleton={(index) => <WallCardSkeleton portrait={index % 2 === 1} />}
        empty={
          <div className="wall-empty" role="status">
            <span className="wall-empty-icon" aria-hidden="true">
              <LineIcon size={26} strokeWidth={1.8}>
                <rect x="3" y="4" width="18" height="16" rx="3" />
                <circle cx="9" cy="10" r="2" />
                <path d="m21 16-5-5-9 9" />
              </LineIcon>
            </span>
            <p>{WALL_MESSAGES.empty}</p>
          </div>
        }
      />
    </ListPage>
  );
}
