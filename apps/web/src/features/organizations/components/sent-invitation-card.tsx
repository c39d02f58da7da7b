import type { SentInvitation } from '@flashbooth/contracts';
import { ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { formatUtcTimestamp } from '@/lib/format-date';
import { roleLabel } from '../organizations-model';

interface SentInvitationCardProps {
  invitation: SentInvitation;
  /** Cancel Invite: super users and product admins only. */
  canCancel: boolean;
  busy: boolean;
  onCancel: () => void;
}

/**
 * An invitation the organization sent and nobody answered yet: the organization, the invitee's
 * name (or "Unknown" until they sign up), phone, role, when and by whom.
 */
export function SentInvitationCard({
  invitation,
  canCancel,
  busy,
  onCancel,
}: SentInvitationCardProps) {
  return (
    <article
      className="card console-card"
      data-testid="sent-invitation-card"
      aria-busy={busy || undefined}
    >
      <p className="org-card-kicker">{invitation.name}</p>
      <div className="org-card-head">
        <h3 className="console-card-title">
          {invitation.invitee_name ?? ORGANIZATION_MESSAGES.unknownInvitee}
        </h3>
        <span className="console-badge console-badge-pending">Pending</span>
      </div>
      <dl className="console-facts">
        <dt>Phone</dt>
        <dd>{invitation.invitee_phone}</dd>
        <dt>Role</dt>
        <dd>{roleLabel(invitation.role)}</dd>
        <dt>Invited at</dt>
        <dd>{formatUtcTimestamp(invitation.invited_at)}</dd>
        <dt>Invited by</dt>
        <dd>{invitation.invited_by_name ?? ORGANIZATION_MESSAGES.unknownInvitee}</dd>
        <dt>Expires</dt>
        <dd>{formatUtcTimestamp(invitation.expires_at)}</dd>
      </dl>
      {canCancel && (
        <div className="console-card-actions">
          <button
            type="button"
            className="btn btn-secondary btn-danger-outline"
            onClick={onCancel}
            disabled={busy}
          >
            Cancel Invite
          </button>
        </div>
      )}
    </article>
  );
}
