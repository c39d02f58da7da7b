import { useRef, type ReactNode } from 'react';
import type { useSearchPaging } from '@/hooks/use-search-paging';
import { Pagination } from './pagination';
import { SearchBox } from './search-box';
import { PageFrame } from './page-frame';

interface ListPageProps {
  /** The screen's own class (its width). */
  className: string;
  title: string;
  paging: ReturnType<typeof useSearchPaging>;
  /** The list's query: the same search again reloads it, and paging waits while it loads. */
  query: { refetch: () => Promise<unknown>; isFetching: boolean };
  searchLabel: string;
  searchPlaceholder: string;
  totalPages: number;
  pagesLabel: string;
  /** The list, or its loading, empty or error state. */
  children: ReactNode;
  /**
   * Below the page numbers (dialogs); the screen's Toast placed here shows under the heading
   * and actions.
   */
  after?: ReactNode;
  /** Above the title (the staff console's breadcrumbs). */
  breadcrumbs?: ReactNode;
  /** Beside the title (a screen's +Create or +Invite). */
  actions?: ReactNode;
  /** Under the title (a device's logs: "Device #7"). */
  subtitle?: ReactNode;
}

/**
 * A searchable list screen with numbered pages (My Media, My Transactions and the staff
 * console's lists): breadcrumbs, heading with its actions, search box, the list, page numbers.
 */
export function ListPage({
  className,
  title,
  paging,
  query,
  searchLabel,
  searchPlaceholder,
  totalPages,
  pagesLabel,
  children,
  after,
  breadcrumbs,
  actions,
  subtitle,
}: ListPageProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);

  /** Paging moves focus to the heading and scrolls it into view. */
  const goToPage = (next: number) => {
    paging.setPage(next);
    headingRef.current?.focus();
    headingRef.current?.scrollIntoView({ block: 'start' });
  };

  return (
    <PageFrame
      className={className}
      breadcrumbs={breadcrumbs}
      title={title}
      headingRef={headingRef}
      actions={actions}
      subtitle={subtitle}
    >
      <SearchBox
        label={searchLabel}
        placeholder={searchPlaceholder}
        applied={paging.search}
        onSearch={(term) => paging.runSearch(term, () => void query.refetch())}
      />
      {children}
      <Pagination
        page={paging.page}
        totalPages={totalPages}
        onChange={goToPage}
        label={pagesLabel}
        disabled={query.isFetching}
      />
      {after}
    </PageFrame>
  );
}
