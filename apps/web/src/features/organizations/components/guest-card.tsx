import type { Guest } from '@flashbooth/contracts';
import { formatUtcTimestamp } from '@/lib/format-date';
import { GUEST_PRIVACY_TEXT } from '../guest-privacy-model';
import { orNotAvailable } from '../organizations-model';

/**
 * A guest: name, Email, Phone and Last Visit, each "N/A" when missing. For super users, Export
 * data and Erase account (a person's request, handled from the console; `privacy`).
 */
export function GuestCard({
  guest,
  privacy,
}: {
  guest: Guest;
  privacy?: { onExport: () => void; onErase: () => void; busy: boolean };
}) {
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
      {privacy && (
        <div className="console-card-actions">
          <button
            type="button"
            className="btn btn-secondary"
            onClick={privacy.onExport}
            disabled={privacy.busy}
            aria-label={`${GUEST_PRIVACY_TEXT.exportButton}: ${orNotAvailable(guest.name)}`}
          >
            {GUEST_PRIVACY_TEXT.exportButton}
          </button>
          <button
            type="button"
            className="btn btn-secondary btn-danger-outline"
            onClick={privacy.onErase}
            disabled={privacy.busy}
            aria-label={`${GUEST_PRIVACY_TEXT.eraseButton}: ${orNotAvailable(guest.name)}`}
          >
            {GUEST_PRIVACY_TEXT.eraseButton}
          </button>
        </div>
      )}
    </article>
  );
}
