import type { Media } from '@flashbooth/contracts';
import { MEDIA_PAGE_SIZE } from '@flashbooth/contracts/rules';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchPaging } from '@/hooks/use-search-paging';
import { myMediaQueryOptions, useMyMedia } from '@/api/media/get-my-media';
import { updateRepostAllowed } from '@/api/media/update-repost-allowed';
import { updateMedia } from '../api/update-media';
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
  const list = useMediaList(
    paging,
    useMyMedia(search, page),
    myMediaQueryOptions({ search, page }).queryKey,
    {
      pageSize: MEDIA_PAGE_SIZE,
      statusMs: MEDIA_STATUS_MS,
      loadFailed: MEDIA_SCREEN_MESSAGES.loadFailed,
    },
  );
  const { patchItem } = list;
  const queryClient = useQueryClient();

  const onAction = async (item: Media, action: CardAction, caption?: string) => {
    // Each message shows under the control it answers: the caption's, or the card's buttons.
    const show = (kind: StatusKind, text: string) =>
      list.show(kind, text, (action === 'caption' ? messageAt.caption : messageAt.card)(item.id));
    switch (action) {
      case 'public': {
        const next = !item.is_public;
        // A private item has no share page (it answers 404 at once).
        patchItem(item.id, next ? { is_public: next } : { is_public: next, share_path: null });
        try {
          await updateMedia(item.id, { is_public: next });
        } catch {
          patchItem(item.id, { is_public: item.is_public, share_path: item.share_path });
          show('error', MEDIA_SCREEN_MESSAGES.publicFailed);
          return;
        }
        // Made public: the page again, for its share page's address.
        if (next) {
          void queryClient.invalidateQueries({
            queryKey: myMediaQueryOptions({ search, page }).queryKey,
            exact: true,
          });
        }
        return;
      }
      case 'repost': {
        const next = !item.is_repost_allowed;
        patchItem(item.id, { is_repost_allowed: next });
        try {
          await updateRepostAllowed({ media_ids: [item.id], is_repost_allowed: next });
        } catch {
          patchItem(item.id, { is_repost_allowed: item.is_repost_allowed });
          show('error', MEDIA_SCREEN_MESSAGES.repostFailed);
        }
        return;
      }
      case 'caption': {
        const change = captionChange(item.caption, caption ?? '');
        if (change.kind === 'unchanged') {
          show('info', MEDIA_SCREEN_MESSAGES.captionUnchanged);
          return;
        }
        try {
          const saved = await updateMedia(item.id, { caption: change.caption });
          patchItem(item.id, { caption: saved.caption, updated_at: saved.updated_at });
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
          const shared = action === 'share';
          patchItem(item.id, shared ? { is_shared: true } : { is_downloaded: true });
          // Bookkeeping only: the visitor already has the file, so a failure here stays quiet.
          updateMedia(item.id, shared ? { is_shared: true } : { is_downloaded: true }).catch(
            () => undefined,
          );
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
