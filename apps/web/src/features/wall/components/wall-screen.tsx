import type { Media } from '@flashbooth/contracts';
import { WALL_PAGE_SIZE } from '@flashbooth/contracts/rules';
import { MediaListPage, useMediaList } from '@/components/media/media-list-page';
import { useSearchPaging } from '@/hooks/use-search-paging';
import { publicMediaQueryOptions, usePublicMedia } from '../api/get-public-media';
import { setLiked } from '../api/toggle-like';
import { WALL_MESSAGES, WALL_STATUS_MS, likeToggle, wallMessageAt } from '../wall-model';
import { WallCard, WallCardSkeleton } from './wall-card';
import './wall.css';

/** The public wall (spec: visitor.md "Wall (public)", sections 4, 7, 8 and 9). */
export function WallScreen() {
  const paging = useSearchPaging();
  const { search, page } = paging;
  const list = useMediaList(
    paging,
    usePublicMedia(search, page),
    publicMediaQueryOptions({ search, page }).queryKey,
    {
      pageSize: WALL_PAGE_SIZE,
      statusMs: WALL_STATUS_MS,
      loadFailed: WALL_MESSAGES.loadFailed,
    },
  );
  const { show, patchItem } = list;

  /** Spec: a like toggles at once with its count and reverts when the call fails. */
  const onLike = async (item: Media) => {
    const toggle = likeToggle(item);
    patchItem(item.id, toggle.optimistic);
    try {
      const answer = await setLiked(item.id, toggle.optimistic.is_liked_by_caller);
      patchItem(item.id, toggle.settled(answer));
    } catch {
      patchItem(item.id, toggle.reverted());
      show('error', WALL_MESSAGES.likeFailed, wallMessageAt.card(item.id));
    }
  };

  return (
    <MediaListPage
      list={list}
      className="wall-page"
      title="Wall"
      searchLabel="Search the wall"
      pagesLabel="Wall pages"
      listClassName="card-grid wall-grid"
      listLabel="Public media"
      renderItem={(item) => (
        <WallCard
          media={item}
          onLike={onLike}
          notify={show}
          status={list.status}
          statusMs={list.statusMs}
        />
      )}
      loadingLabel="Loading the wall…"
      skeletonCount={3}
      Skeleton={WallCardSkeleton}
      emptyText={WALL_MESSAGES.empty}
      emptyRole="status"
    />
  );
}
