import type { OrganizationInvitation } from '@flashbooth/contracts';
import { ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { formatUtcTimestamp } from '@/lib/format-date';
import { roleLabel } from '../organizations-model';

interface InvitationCardProps {
  invitation: OrganizationInvitation;
  busy: boolean;
  onAccept: () => void;
  onDeny: () => void;
}

/**
 * An invitation the person received: organization, who invited, role, when, and when it expires
 * unanswered (INVITE_TTL_DAYS); Accept or Deny.
 */
export function InvitationCard({ invitation, busy, onAccept, onDeny }: InvitationCardProps) {
  return (
    <article
      className="card console-card"
      data-testid="invitation-card"
      aria-busy={busy || undefined}
    >
      <h3 className="console-card-title">{invitation.org_name}</h3>
      <dl className="console-facts">
        <dt>Invited by</dt>
        <dd>{invitation.invited_by_name ?? ORGANIZATION_MESSAGES.unknownInvitee}</dd>
        <dt>Role</dt>
        <dd>
          <span className={`console-badge console-badge-${invitation.role}`}>
            {roleLabel(invitation.role)}
          </span>
        </dd>
        <dt>Invited at</dt>
        <dd>{formatUtcTimestamp(invitation.invited_at)}</dd>
        <dt>Expires</dt>
        <dd>{formatUtcTimestamp(invitation.expires_at)}</dd>
      </dl>
      <div className="console-card-actions">
        <button type="button" className="btn btn-primary" onClick={onAccept} disabled={busy}>
          Accept
        </button>
        <button type="button" className="btn btn-secondary" onClick={onDeny} disabled={busy}>
          Deny
        </button>
      </div>
    </article>
  );
}
