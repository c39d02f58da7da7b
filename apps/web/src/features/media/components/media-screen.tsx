import type { Media } from '@flashbooth/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ListLoading } from '@/components/ui/list-states';
import { ListPage } from '@/components/ui/list-page';
import { pageCount } from '@/components/ui/pagination-model';
import { useTimedStatus, type Status } from '@/components/ui/status-message';
import { useSearchPaging } from '@/hooks/use-search-paging';
import { LineIcon } from '@/components/ui/line-icon';
import { myMediaQueryKey, useMyMedia, type MediaPage } from '../api/get-media';
import { updateMedia } from '../api/update-media';
import { updateRepostAllowed } from '../api/update-repost-allowed';
import { downloadMedia, shareMedia } from '../media-actions';
import {
  MEDIA_PAGE_SIZE,
  MEDIA_SCREEN_MESSAGES,
  MEDIA_STATUS_MS,
  captionChange,
  isMobileUserAgent,
} from '../media-model';
import { MediaCard, MediaCardSkeleton, type CardAction } from './media-card';
import './media.css';

const onMobile = typeof navigator !== 'undefined' && isMobileUserAgent(navigator.userAgent);

/**
 * The screen's one message (spec: success and error never together; gone after 5 s). It fades in
 * and out over its lifetime; each new message starts afresh, while the live region itself stays
 * so screen readers announce every message.
 */
function MediaStatus({ status }: { status: Status | null }) {
  const [shown, setShown] = useState(status);
  const [serial, setSerial] = useState(0);
  if (shown !== status) {
    setShown(status);
    if (status) setSerial((value) => value + 1);
  }
  return (
    <div
      className="media-status"
      role="status"
      aria-live={status?.kind === 'error' ? 'assertive' : 'polite'}
    >
      {status && (
        <p
          key={serial}
          className={`status status-${status.kind} media-toast`}
          data-testid={`status-${status.kind}`}
          style={{ animationDuration: `${MEDIA_STATUS_MS}ms` }}
        >
          {status.text}
        </p>
      )}
    </div>
  );
}

/** My Media (spec: visitor.md sections 2, 4, 7 and 8). */
export function MediaScreen() {
  const queryClient = useQueryClient();
  const paging = useSearchPaging();
  const { search, page } = paging;
  const media = useMyMedia(search, page);
  const { status, show } = useTimedStatus(MEDIA_STATUS_MS);
  paging.resetPageOnError(media.isError);
  const failedAt = media.isError ? media.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedAt) show('error', MEDIA_SCREEN_MESSAGES.loadFailed);
  }, [failedAt, show]);

  const key = myMediaQueryKey(search, page);
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

  const items = media.isError ? [] : (media.data?.items ?? []);
  const totalPages =
    media.data && !media.isError ? pageCount(media.data.total_count, MEDIA_PAGE_SIZE) : 1;

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
      after={<MediaStatus status={status} />}
    >
      {media.isPending ? (
        <ListLoading label="Loading your media…">
          <ul className="card-grid media-grid" aria-hidden="true">
            {Array.from({ length: 4 }, (_, index) => (
              <li key={index} className="card-grid-item">
                <MediaCardSkeleton portrait={index % 2 === 1} />
              </li>
            ))}
          </ul>
        </ListLoading>
      ) : items.length === 0 ? (
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
      ) : (
        <ul
          className="card-grid media-grid"
          aria-label="My media"
          aria-busy={media.isFetching || undefined}
        >
          {items.map((item) => (
            <li key={item.id} className="card-grid-item">
              <MediaCard media={item} canShare={onMobile} onAction={onAction} />
            </li>
          ))}
        </ul>
      )}
    </ListPage>
  );
}
