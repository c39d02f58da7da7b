import type { Media, MediaPage } from '@flashbooth/contracts';
import { MEDIA_PAGE_SIZE } from '@flashbooth/contracts/rules';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ListBody } from '@/components/ui/list-states';
import { ListPage } from '@/components/ui/list-page';
import { useTimedStatus } from '@/components/ui/status-message';
import { Toast } from '@/components/ui/toast';
import { usePagedView, useSearchPaging } from '@/hooks/use-search-paging';
import { LineIcon } from '@/components/ui/line-icon';
import { myMediaQueryOptions, useMyMedia } from '@/api/media/get-my-media';
import { updateRepostAllowed } from '@/api/media/update-repost-allowed';
import { updateMedia } from '../api/update-media';
import { downloadMedia, shareMedia } from '@/components/media/media-files';
import { isMobileUserAgent } from '@/components/media/media-files-model';
import { MEDIA_SCREEN_MESSAGES, MEDIA_STATUS_MS, captionChange } from '../media-model';
import { MediaCard, MediaCardSkeleton, type CardAction } from './media-card';
import './media.css';

const onMobile = typeof navigator !== 'undefined' && isMobileUserAgent(navigator.userAgent);

/** My Media (spec: visitor.md sections 2, 4, 7 and 8). */
export function MediaScreen() {
  const queryClient = useQueryClient();
  const paging = useSearchPaging();
  const { search, page } = paging;
  const media = useMyMedia(search, page);
  const { status, show } = useTimedStatus(MEDIA_STATUS_MS);
  const { items, totalPages } = usePagedView(paging, media, MEDIA_PAGE_SIZE);
  const failedAt = media.isError ? media.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedAt) show('error', MEDIA_SCREEN_MESSAGES.loadFailed);
  }, [failedAt, show]);

  const key = myMediaQueryOptions({ search, page }).queryKey;
  /** Changes one item in the page on screen (optimistic toggles, saved captions). */
  const patchItem = (id: number, change: Partial<Media>) => {
    // A reload already on its way could bring back the old value over the optimistic one.
    void queryClient.cancelQueries({ queryKey: key, exact: true });
    queryClient.setQueryData<MediaPage>(key, (current) =>
      current
        ? {
            ...current,
            items: current.items.map((item) => (item.id === id ? { ...item, ...change } : item)),
          }
        : current,
    );
  };

  const onAction = async (item: Media, action: CardAction, caption?: string) => {
    switch (action) {
      case 'public': {
        const next = !item.is_public;
        patchItem(item.id, { is_public: next });
        try {
          await updateMedia(item.id, { is_public: next });
        } catch {
          patchItem(item.id, { is_public: item.is_public });
          show('error', MEDIA_SCREEN_MESSAGES.publicFailed);
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
        } catch {
          show('error', MEDIA_SCREEN_MESSAGES.captionFailed);
        }
        return;
      }
      case 'download':
      case 'share': {
        const outcome = action === 'download' ? await downloadMedia(item) : await shareMedia(item);
        if (outcome.kind !== 'silent') show(outcome.kind, outcome.text);
        if (outcome.done) {
          const flag = action === 'download' ? 'is_downloaded' : 'is_shared';
          patchItem(item.id, { [flag]: true });
          // Bookkeeping only: the visitor already has the file, so a failure here stays quiet.
          updateMedia(
            item.id,
            action === 'download' ? { is_downloaded: true } : { is_shared: true },
          ).catch(() => undefined);
        }
        return;
      }
    }
  };

  return (
    <ListPage
      className="media-page"
      title="My Media"
      paging={paging}
      query={media}
      searchLabel="Search my media"
      searchPlaceholder="Search my media"
      totalPages={totalPages}
      pagesLabel="My Media pages"
      after={<Toast status={status} ms={MEDIA_STATUS_MS} />}
    >
      <ListBody
        query={media}
        items={items}
        listClassName="card-grid media-grid"
        listLabel="My media"
        itemKey={(item) => item.id}
        renderItem={(item) => <MediaCard media={item} canShare={onMobile} onAction={onAction} />}
        loadingLabel="Loading your media…"
        skeletonCount={4}
        renderSkeleton={(index) => <MediaCardSkeleton portrait={index % 2 === 1} />}
        empty={
          <div className="media-empty">
            <span className="media-empty-icon" aria-hidden="true">
              <LineIcon size={26} strokeWidth={1.8}>
                <rect x="3" y="4" width="18" height="16" rx="3" />
                <circle cx="9" cy="10" r="2" />
                <path d="m21 16-5-5-9 9" />
              </LineIcon>
            </span>
            <p>{MEDIA_SCREEN_MESSAGES.empty}</p>
          </div>
        }
      />
    </ListPage>
  );
}
