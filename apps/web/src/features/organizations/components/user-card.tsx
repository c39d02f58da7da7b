import type { OrganizationUser } from '@flashbooth/contracts';
import { formatUtcTimestamp } from '@/lib/format-date';
import { roleLabel } from '../organizations-model';

interface UserCardProps {
  user: OrganizationUser;
  /** Edit and Remove: super users and product admins only. */
  canManage: boolean;
  /** This card is the signed-in person. */
  isSelf: boolean;
  busy: boolean;
  onEdit: () => void;
  onRemove: () => void;
}

/** A member: name, role, phone, joined time; Edit and Remove for privileged staff. */
export function UserCard({ user, canManage, isSelf, busy, onEdit, onRemove }: UserCardProps) {
  return (
    <article className="card console-card" data-testid="user-card" aria-busy={busy || undefined}>
      <div className="org-card-head">
        <h3 className="console-card-title">
          {user.name || 'Unnamed'}
          {isSelf && <span className="org-you"> (you)</span>}
        </h3>
        <span className={`console-badge console-badge-${user.role}`}>{roleLabel(user.role)}</span>
      </div>
      <dl className="console-facts">
        <dt>Phone</dt>
        <dd>{user.phone}</dd>
        <dt>Joined</dt>
        <dd>{formatUtcTimestamp(user.joined_at)}</dd>
      </dl>
      {canManage && (
        <div className="console-card-actions">
          <button type="button" className="btn btn-secondary" onClick={onEdit} disabled={busy}>
            Edit
          </button>
          <button
            type="button"
            className="btn btn-secondary btn-danger-outline"
            onClick={onRemove}
            disabled={busy}
          >
            Remove
          </button>
        </div>
      )}
    </article>
  );
}
