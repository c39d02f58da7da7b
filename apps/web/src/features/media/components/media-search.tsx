import { useId, useState, type FormEvent } from 'react';

interface MediaSearchProps {
  /** The search the list shows now. */
  applied: string;
  onSearch: (term: string) => void;
}

/** Spec: a search box; Enter (or the button) searches and goes back to page 1. */
export function MediaSearch({ applied, onSearch }: MediaSearchProps) {
  const inputId = useId();
  const [draft, setDraft] = useState(applied);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(draft.trim());
  };

  return (
    <form className="media-search" role="search" onSubmit={submit}>
      <label htmlFor={inputId} className="visually-hidden">
        Search my media
      </label>
      <span className="media-search-field">
        <svg
          className="media-search-icon"
          viewBox="0 0 24 24"
          width="18"
          height="18"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          aria-hidden="true"
          focusable="false"
        >
          <circle cx="11" cy="11" r="7" />
          <path d="m20 20-3.5-3.5" />
        </svg>
        <input
          id={inputId}
          className="input media-search-input"
          type="search"
          placeholder="Search by venue, booth or caption"
          enterKeyHint="search"
          autoComplete="off"
          maxLength={200}
          value={draft}
          onChange={(event) => {
            const next = event.target.value;
            setDraft(next);
            // Clearing the box (for example with its × button) shows everything again.
            if (next === '' && applied !== '') onSearch('');
          }}
        />
      </span>
      <button type="submit" className="btn btn-primary media-search-button">
        Search
      </button>
    </form>
  );
}
