import type { Guest } from '@flashbooth/contracts';
import { formatUtcTimestamp } from '@/lib/format-date';
import { orNotAvailable } from '../organizations-model';

/** A guest: name, Email, Phone and Last Visit, each "N/A" when missing. */
export function GuestCard({ guest }: { guest: Guest }) {
  return (
    <article className="card console-card" data-testid="guest-card">
      <h3 className="console-card-title">{orNotAvailable(guest.name)}</h3>
      <dl className="console-facts">
        <dt>Email</dt>
        <dd>{orNotAvailable(guest.email)}</dd>
        <dt>Phone</dt>
        <dd>{orNotAvailable(guest.phone)}</dd>
        <dt>Last Visit</dt>
        <dd>{guest.last_visit ? formatUtcTimestamp(guest.last_visit) : orNotAvailable(null)}</dd>
      </dl>
    </article>
  );
}
