import { pageSlots } from './pagination-model';
import './pagination.css';

interface PaginationProps {
  /** 1-based current page. */
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
  /** Names the navigation landmark, e.g. "My Media pages". */
  label?: string;
  disabled?: boolean;
}

/** Previous, page numbers (spec rule: first, last, neighbours within 1, ellipses) and Next. */
export function Pagination({
  page,
  totalPages,
  onChange,
  label = 'Pagination',
  disabled = false,
}: PaginationProps) {
  if (totalPages <= 1) return null;
  const go = (target: number) => {
    if (!disabled && target !== page && target >= 1 && target <= totalPages) onChange(target);
  };
  return (
    <nav className="pagination" aria-label={label}>
      <button
        type="button"
        className="pagination-button pagination-step"
        onClick={() => go(page - 1)}
        disabled={disabled || page <= 1}
        aria-label="Previous page"
      >
        ‹
      </button>
      <ul className="pagination-list">
        {pageSlots(page, totalPages).map((slot) =>
          slot.kind === 'gap' ? (
            <li key={slot.key} className="pagination-gap" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={slot.page}>
              <button
                type="button"
                className="pagination-button"
                onClick={() => go(slot.page)}
                disabled={disabled}
                aria-current={slot.page === page ? 'page' : undefined}
                aria-label={`Page ${slot.page}`}
              >
                {slot.page}
              </button>
            </li>
          ),
        )}
      </ul>
      <button
        type="button"
        className="pagination-button pagination-step"
        onClick={() => go(page + 1)}
        disabled={disabled || page >= totalPages}
        aria-label="Next page"
      >
        ›
      </button>
    </nav>
  );
}
