import { useSearchParams } from 'react-router';
import { LineIcon } from '@/components/ui/line-icon';

/** Spec (App shell): shown when the route guard sent a staff account away from a guest page. */
export function BlockedBanner() {
  const [searchParams, setSearchParams] = useSearchParams();
  if (searchParams.get('blocked') !== 'regular') return null;

  const dismiss = () =>
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.delete('blocked');
        return next;
      },
      { replace: true },
    );

  return (
    <div className="blocked-banner" role="alert" data-testid="blocked-banner">
      <LineIcon className="blocked-banner-icon" size={22}>
        <circle cx="12" cy="12" r="9" />
        <path d="M12 7.5v5.5M12 16.5v.01" />
      </LineIcon>
      <p className="blocked-banner-text">
        You&apos;re signed in to the Venue Portal. To use the guest pages, log out from Profile and
        then sign in as a guest.
      </p>
      <button type="button" className="btn btn-secondary blocked-banner-dismiss" onClick={dismiss}>
        Dismiss
      </button>
    </div>
  );
}
