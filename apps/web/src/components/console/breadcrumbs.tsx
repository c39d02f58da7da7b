import { Link } from 'react-router';
import './console.css';

export interface Crumb {
  label: string;
  /** Where the crumb leads; the last crumb (this page) has none. */
  href?: string;
}

/** "Organizations > Demo Org > Users": links up the hierarchy, the current page last. */
export function Breadcrumbs({ items }: { items: readonly Crumb[] }) {
  return (
    <nav className="breadcrumbs" aria-label="Breadcrumb">
      <ol>
        {items.map((item, index) => {
          const last = index === items.length - 1;
          return (
            <li key={`${index}-${item.label}`}>
              {item.href && !last ? (
                <Link to={item.href}>{item.label}</Link>
              ) : (
                <span aria-current={last ? 'page' : undefined}>{item.label}</span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
