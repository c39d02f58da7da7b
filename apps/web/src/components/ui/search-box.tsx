import { useId, useState, type FormEvent } from 'react';
import { LineIcon } from './line-icon';
import './search-box.css';

interface SearchBoxProps {
  /** Accessible name of the field. */
  label: string;
  placeholder: string;
  /** The search the list shows now. */
  applied: string;
  onSearch: (term: string) => void;
}

/** A list's search box: Enter or the button searches; clearing the box shows everything again. */
export function SearchBox({ label, placeholder, applied, onSearch }: SearchBoxProps) {
  const inputId = useId();
  const [draft, setDraft] = useState(applied);
  // When the list's search changes from outside (Clear search), the box follows it.
  const [shown, setShown] = useState(applied);
  if (shown !== applied) {
    setShown(applied);
    setDraft(applied);
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(draft.trim());
  };

  return (
    <form className="search-box" role="search" onSubmit={submit}>
      <label htmlFor={inputId} className="visually-hidden">
        {label}
      </label>
      <span className="search-box-field">
        <LineIcon className="search-box-icon" size={18}>
          <circle cx="11" cy="11" r="7" />
          <path d="m20 20-3.5-3.5" />
        </LineIcon>
        <input
          id={inputId}
          className="input search-box-input"
          type="search"
          placeholder={placeholder}
          enterKeyHint="search"
          autoComplete="off"
          maxLength={200}
          value={draft}
          onChange={(event) => {
            const next = event.target.value;
            setDraft(next);
            // Clearing the box (for example with its × button) shows every template again.
            if (next === '' && applied !== '') onSearch('');
          }}
        />
      </span>
      <button type="submit" className="btn btn-primary search-box-button">
        Search
      </button>
    </form>
  );
}
