import { SearchBox } from '@/components/ui/search-box';
import type { Media } from '@flashbooth/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Pagination } from '@/components/ui/pagination';
import { pageCount } from '@/components/ui/pagination-model';
import { StatusMessage, useTimedStatus } from '@/components/ui/status-message';
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

/** My Media (spec: visitor.md sections 2, 4, 7 and 8). */
export function MediaScreen() {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const media = useMyMedia(search, page);
  const { status, show } = useTimedStatus(MEDIA_STATUS_MS);
  const headingRef = useRef<HTMLHeadingElement>(null);

  // Spec: a failed list is emptied and the page goes back to 1.
  if (media.isError && page !== 1) setPage(1);
  const failedAt = media.isError ? media.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedAt) show('error', MEDIA_SCREEN_MESSAGES.loadFailed);
  }, [failedAt, show]);

  const key = myMediaQueryKey(search, page);
  /** Changes one item in the page on screen (optimistic toggles, saved captions). */
  const patchItem = (id: number, change: Partial<Media>) => {
    queryClient.setQueryData<MediaPage>(key, (current) =>
      current
        ? {
            ...current,
            items: current.items.map((item) => (item.id === id ? { ...item, ...change } : item)),
          }
        : current,
    );
  };

  const runSearch = (term: string) => {
    setSearch(term);
    setPage(1);
    // The same search again still reloads the first page.
    if (term === search && page === 1) void media.refetch();
  };

  const goToPage = (next: number) => {
    setPage(next);
    headingRef.current?.focus();
    headingRef.current?.scrollIntoView({ block: 'start' });
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
    <main className="page media-page" id="main">
      <h1 className="page-title media-title" ref={headingRef} tabIndex={-1}>
        My Media
      </h1>

      <SearchBox
        label="Search my media"
        placeholder="Search by venue, booth or caption"
        applied={search}
        onSearch={runSearch}
      />

      {media.isPending ? (
        <div aria-busy="true">
          <span className="visually-hidden" role="status">
            Loading your media…
          </span>
          <ul className="media-grid" aria-hidden="true">
            {Array.from({ length: 4 }, (_, index) => (
              <li key={index} className="media-grid-item">
                <MediaCardSkeleton portrait={index % 2 === 1} />
              </li>
            ))}
          </ul>
        </div>
      ) : items.length === 0 ? (
        <p className="media-empty">{MEDIA_SCREEN_MESSAGES.empty}</p>
      ) : (
        <ul className="media-grid" aria-label="My media" aria-busy={media.isFetching || undefined}>
          {items.map((item) => (
            <li key={item.id} className="media-grid-item">
              <MediaCard media={item} canShare={onMobile} onAction={onAction} />
            </li>
          ))}
        </ul>
      )}

      <Pagination
        page={page}
        totalPages={totalPages}
        onChange={goToPage}
        label="My Media pages"
        disabled={media.isFetching}
      />

      <div className="media-status">
        <StatusMessage status={status} />
      </div>
    </main>
  );
}
