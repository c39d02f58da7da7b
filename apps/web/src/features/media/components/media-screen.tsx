import type { Media } from '@flashbooth/contracts';
import { MEDIA_PAGE_SIZE } from '@flashbooth/contracts/rules';
import { useSearchPaging } from '@/hooks/use-search-paging';
import { myMediaQueryOptions, useMyMedia } from '@/api/media/get-my-media';
import { useRecordMediaUse } from '../api/update-media';
import type { MediaFileAction } from '@/components/media/media-file-buttons';
import { downloadGif, downloadMedia, shareMedia } from '@/components/media/media-files';
import { isMobileUserAgent } from '@/components/media/media-files-model';
import type { StatusKind } from '@/components/ui/status-message';
import { MediaListPage, useMediaList } from '@/components/media/media-list-page';
import { MEDIA_SCREEN_MESSAGES, MEDIA_STATUS_MS, messageAt } from '../media-model';
import { appConfig } from '@/config/app-config';
import { shareMediaPage, sharePageUrl } from '../share-page';
import { MediaCard, MediaCardSkeleton } from './media-card';
import './media.css';

const onMobile = typeof navigator !== 'undefined' && isMobileUserAgent(navigator.userAgent);

/** My Media (spec: visitor.md sections 2, 4, 7 and 8). */
export function MediaScreen() {
  const paging = useSearchPaging();
  const { search, page } = paging;
  const pageKey = myMediaQueryOptions({ search, page }).queryKey;
  const list = useMediaList(paging, useMyMedia(search, page), pageKey, {
    pageSize: MEDIA_PAGE_SIZE,
    statusMs: MEDIA_STATUS_MS,
    loadFailed: MEDIA_SCREEN_MESSAGES.loadFailed,
  });
  // Bookkeeping once the visitor has the file; the switches and the caption are the card's.
  const recordUse = useRecordMediaUse(pageKey);

  const onFileAction = async (item: Media, action: MediaFileAction) => {
    // The message shows under the card's buttons.
    const show = (kind: StatusKind, text: string) => list.show(kind, text, messageAt.card(item.id));
    // Share of a public photo: its share page's link (a preview with the venue), not the
    // file. A motion item shares its MP4 itself where the phone takes files, else that link.
    const sharePath = item.is_public ? item.share_path : null;
    const pageLink = sharePath
      ? sharePageUrl(sharePath, appConfig.publicUrl, window.location.origin)
      : undefined;
    const outcome =
      action === 'download'
        ? await downloadMedia(item)
        : action === 'gif'
          ? await downloadGif(item)
          : item.media_type === 'video'
            ? await shareMedia(item, pageLink)
            : pageLink
              ? await shareMediaPage(pageLink)
              : await shareMedia(item);
    if (outcome.kind !== 'silent') show(outcome.kind, outcome.text);
    if (outcome.done) {
      // Bookkeeping only: the visitor already has the file, so a failure here stays quiet.
      recordUse.mutate({ id: item.id, use: action === 'share' ? 'shared' : 'downloaded' });
    }
  };

  return (
    <MediaListPage
      list={list}
      className="media-page"
      title="My Media"
      searchLabel="Search my media"
      pagesLabel="My Media pages"
      listClassName="card-grid media-grid"
      listLabel="My media"
      renderItem={(item) => (
        <MediaCard
          media={item}
          canShare={onMobile}
          pageKey={pageKey}
          onFileAction={onFileAction}
          notify={list.show}
          status={list.status}
          statusMs={list.statusMs}
        />
      )}
      loadingLabel="Loading your media…"
      skeletonCount={4}
      Skeleton={MediaCardSkeleton}
      emptyText={MEDIA_SCREEN_MESSAGES.empty}
    />
  );
}
