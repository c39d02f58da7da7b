import type { Media } from '@flashbooth/contracts';
import { MEDIA_PAGE_SIZE } from '@flashbooth/contracts/rules';
import { useSearchPaging } from '@/hooks/use-search-paging';
import { myMediaQueryOptions, useMyMedia } from '@/api/media/get-my-media';
import { useToggleRepost } from '@/api/media/update-repost-allowed';
import { useRecordMediaUse, useSaveCaption, useSetPublic } from '../api/update-media';
import { downloadGif, downloadMedia, shareMedia } from '@/components/media/media-files';
import { isMobileUserAgent } from '@/components/media/media-files-model';
import type { StatusKind } from '@/components/ui/status-message';
import { MediaListPage, useMediaList } from '@/components/media/media-list-page';
import { MEDIA_SCREEN_MESSAGES, MEDIA_STATUS_MS, captionChange, messageAt } from '../media-model';
import { appConfig } from '@/config/app-config';
import { shareMediaPage, sharePageUrl } from '../share-page';
import { MediaCard, MediaCardSkeleton, type CardAction } from './media-card';
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
  // The page's cache is the hooks'; each card waits for its own action's answer (MediaCard).
  const setPublic = useSetPublic(pageKey);
  const toggleRepost = useToggleRepost(pageKey);
  const saveCaption = useSaveCaption(pageKey);
  const recordUse = useRecordMediaUse(pageKey);

  const onAction = async (item: Media, action: CardAction, caption?: string) => {
    // Each message shows under the control it answers: the caption's, or the card's buttons.
    const show = (kind: StatusKind, text: string) =>
      list.show(kind, text, (action === 'caption' ? messageAt.caption : messageAt.card)(item.id));
    switch (action) {
      case 'public':
        await setPublic
          .mutateAsync(item)
          .catch(() => show('error', MEDIA_SCREEN_MESSAGES.publicFailed));
        return;
      case 'repost':
        await toggleRepost
          .mutateAsync(item)
          .catch(() => show('error', MEDIA_SCREEN_MESSAGES.repostFailed));
        return;
      case 'caption': {
        const change = captionChange(item.caption, caption ?? '');
        if (change.kind === 'unchanged') {
          show('info', MEDIA_SCREEN_MESSAGES.captionUnchanged);
          return;
        }
        try {
          const saved = await saveCaption.mutateAsync({ id: item.id, caption: change.caption });
          show(
            'success',
            saved.caption === null
              ? MEDIA_SCREEN_MESSAGES.captionRemoved
              : MEDIA_SCREEN_MESSAGES.captionSaved,
          );
        } catch {
          show('error', MEDIA_SCREEN_MESSAGES.captionFailed);
        }
        return;
      }
      case 'download':
      case 'gif':
      case 'share': {
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
        return;
      }
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
          onAction={onAction}
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
