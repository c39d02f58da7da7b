import type { VisitorTemplate } from '@flashbooth/contracts';
import { useEffect, useRef } from 'react';
import { LoadErrorPanel } from '@/components/ui/list-states';
import type { useDeviceTemplates } from '../api/get-device-templates';
import { BOOTH_MESSAGES } from '../booth-model';
import { TemplateCard, TemplateCardSkeleton } from './template-card';

const SKELETON_CARDS = 6;
/** Placeholders shown under the list while the next page loads. */
const MORE_SKELETON_CARDS = 3;

interface TemplateListProps {
  query: ReturnType<typeof useDeviceTemplates>;
  search: string;
  onPick: (template: VisitorTemplate) => void;
  onClearSearch: () => void;
  onLoadMoreFailed: () => void;
}

/** The template cards with the cursor paging's Load More Templates control. */
export function TemplateList({
  query,
  search,
  onPick,
  onClearSearch,
  onLoadMoreFailed,
}: TemplateListProps) {
  const listRef = useRef<HTMLUListElement>(null);
  /** After Load More, focus moves to the first new card (keyboard and screen-reader users). */
  const focusFromRef = useRef<number | null>(null);
  const items = query.data?.pages.flatMap((page) => page.items) ?? [];
  const count = items.length;

  useEffect(() => {
    const from = focusFromRef.current;
    if (from === null || count <= from) return;
    focusFromRef.current = null;
    listRef.current?.querySelectorAll<HTMLButtonElement>('.booth-card')[from]?.focus();
  }, [count]);

  if (query.isPending) {
    return (
      <div className="card-grid booth-grid" aria-busy="true" data-testid="templates-loading">
        <span className="visually-hidden" role="status">
          Loading templates…
        </span>
        {Array.from({ length: SKELETON_CARDS }, (_, index) => (
          <TemplateCardSkeleton key={index} portrait={index % 3 === 1} />
        ))}
      </div>
    );
  }

  if (query.isError && count === 0) {
    return (
      <LoadErrorPanel
        className="card panel-message panel-message-error booth-panel"
        message={BOOTH_MESSAGES.templatesFailed}
        query={query}
      />
    );
  }

  if (count === 0) {
    return (
      <div className="card panel-message booth-panel">
        <p className="booth-empty-title">{BOOTH_MESSAGES.noTemplates}</p>
        {search !== '' && (
          <>
            <p className="panel-message-hint">Try another name, or show every template.</p>
            <button type="button" className="btn btn-secondary" onClick={onClearSearch}>
              Clear search
            </button>
          </>
        )}
      </div>
    );
  }

  const loadMore = async () => {
    focusFromRef.current = count;
    const result = await query.fetchNextPage();
    if (result.isError) {
      focusFromRef.current = null;
      onLoadMoreFailed();
    }
  };

  return (
    <>
      <ul
        ref={listRef}
        className="card-grid booth-grid"
        aria-label={search ? `Templates matching “${search}”` : 'Templates'}
        aria-busy={query.isFetchingNextPage}
      >
        {items.map((template) => (
          <li key={template.id} className="card-grid-item">
            <TemplateCard template={template} onPick={onPick} />
          </li>
        ))}
        {query.isFetchingNextPage &&
          Array.from({ length: MORE_SKELETON_CARDS }, (_, index) => (
            <li key={`loading-${index}`} className="card-grid-item" aria-hidden="true">
              <TemplateCardSkeleton />
            </li>
          ))}
      </ul>
      {query.hasNextPage && (
        <div className="booth-more">
          <button
            type="button"
            className="btn btn-secondary booth-more-button"
            onClick={() => void loadMore()}
            disabled={query.isFetchingNextPage}
          >
            {query.isFetchingNextPage && <span className="spinner spinner-sm" aria-hidden="true" />}
            Load More Templates
          </button>
        </div>
      )}
    </>
  );
}
