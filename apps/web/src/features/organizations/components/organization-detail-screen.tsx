import { ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Breadcrumbs } from '@/components/console/breadcrumbs';
import { ConsolePage } from '@/components/console/console-page';
import { useStaffPermissions } from '@/components/console/use-staff-permissions';
import { ConfirmDialog } from '@/components/ui/dialog';
import { LoadFailure } from '@/components/console/load-failure';
import { useTimedStatus } from '@/components/ui/status-message';
import { Toast } from '@/components/ui/toast';
import { paths } from '@/config/paths';
import { formatUtcTimestamp } from '@/lib/format-date';
import { useDeleteOrganization } from '../api/delete-organization';
import { organizationQueryOptions, useOrganization } from '../api/get-organization';
import {
  ORGANIZATION_SCREEN_TEXT,
  ORGANIZATION_STATUS_MS,
  RETURN_AFTER_DELETE_MS,
  organizationTitle,
} from '../organizations-model';
import { EditOrganizationDialog } from './edit-organization-dialog';
import { LogoUploader } from './logo-uploader';
import '@/components/console/console.css';
import './organizations.css';

const M = ORGANIZATION_MESSAGES;
const NOT_SET = 'Not set';

/** Organization detail (staff spec section 2). */
export function OrganizationDetailScreen({ orgId }: { orgId: number }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { status, show } = useTimedStatus(ORGANIZATION_STATUS_MS);
  const permissions = useStaffPermissions(show);
  const organization = useOrganization(orgId);
  const remove = useDeleteOrganization(orgId);
  const [editing, setEditing] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const deleted = remove.isSuccess;

  // Spec: after a delete, back to the list after 1.5 s.
  useEffect(() => {
    if (!deleted) return;
    const timer = setTimeout(() => {
      queryClient.removeQueries({ queryKey: organizationQueryOptions(orgId).queryKey });
      void navigate(paths.enterprise.organizations.getHref(), { replace: true });
    }, RETURN_AFTER_DELETE_MS);
    return () => clearTimeout(timer);
  }, [deleted, navigate, orgId, queryClient]);

  const record = organization.data;
  const name = organizationTitle(record);
  const breadcrumbs = (
    <Breadcrumbs
      items={[
        { label: 'Organizations', href: paths.enterprise.organizations.getHref() },
        { label: name },
      ]}
    />
  );
  const toast = <Toast status={status} ms={ORGANIZATION_STATUS_MS} />;

  if (organization.isPending) {
    return (
      <ConsolePage className="console-narrow" breadcrumbs={breadcrumbs} title={name} after={toast}>
        <div className="card org-detail" aria-busy="true">
          <span className="visually-hidden" role="status">
            Loading organization…
          </span>
          <div className="org-detail-logo">
            <span className="org-logo skeleton" />
          </div>
          <div className="org-detail-body" aria-hidden="true">
            {Array.from({ length: 5 }, (_, index) => (
              <span
                key={index}
                className="skeleton skeleton-line"
                style={{ width: `${80 - index * 8}%` }}
              />
            ))}
          </div>
        </div>
      </ConsolePage>
    );
  }

  if (organization.isError || !record) {
    return (
      <ConsolePage className="console-narrow" breadcrumbs={breadcrumbs} title={name} after={toast}>
        <LoadFailure
          error={organization.error}
          thing="organization"
          failedMessage={M.loadDetailsFailed}
          query={organization}
          back={{ href: paths.enterprise.organizations.getHref(), label: 'Back to Organizations' }}
        />
      </ConsolePage>
    );
  }

  const canEdit = permissions.can('organization.edit', orgId);
  const canDelete = permissions.can('organization.delete', orgId);
  const busy = remove.isPending || deleted;

  return (
    <ConsolePage className="console-narrow" breadcrumbs={breadcrumbs} title={name} after={toast}>
      <div className="card org-detail">
        <LogoUploader organization={record} canUpload={canEdit} disabled={busy} onStatus={show} />
        <dl className="console-facts org-detail-body">
          <dt>ID</dt>
          <dd>{record.id}</dd>
          <dt>Phone</dt>
          <dd>{record.phone || NOT_SET}</dd>
          <dt>Email</dt>
          <dd>{record.email || NOT_SET}</dd>
          <dt>Address</dt>
          <dd className="org-address">{record.address || NOT_SET}</dd>
          <dt>Created At</dt>
          <dd>{formatUtcTimestamp(record.created_at)}</dd>
        </dl>
      </div>

      <div
        className="console-actions org-detail-actions"
        aria-label="Organization actions"
        role="group"
      >
        {canEdit && (
          <button
            type="button"
            className="btn btn-primary org-action-wide"
            onClick={() => setEditing(true)}
            disabled={busy}
          >
            Edit Organization
          </button>
        )}
        <Link className="btn btn-secondary" to={paths.enterprise.organizationMedia.getHref(orgId)}>
          View Media
        </Link>
        <Link className="btn btn-secondary" to={paths.enterprise.organizationUsers.getHref(orgId)}>
          View Users
        </Link>
        <Link className="btn btn-secondary" to={paths.enterprise.organizationGuests.getHref(orgId)}>
          View Guests
        </Link>
        <Link className="btn btn-secondary" to={paths.enterprise.organizationStats.getHref(orgId)}>
          View Statistics
        </Link>
        {canDelete && (
          <button
            type="button"
            className="btn btn-danger org-action-wide"
            onClick={() => setConfirmingDelete(true)}
            disabled={busy}
          >
            Delete Organization
          </button>
        )}
      </div>

      {editing && (
        <EditOrganizationDialog
          organization={record}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            show('success', ORGANIZATION_SCREEN_TEXT.updated);
          }}
        />
      )}
      <ConfirmDialog
        open={confirmingDelete}
        title={M.deleteConfirmTitle}
        message={M.deleteConfirm}
        confirmLabel="Yes, Delete"
        danger
        busy={remove.isPending}
        onCancel={() => setConfirmingDelete(false)}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => show('success', ORGANIZATION_SCREEN_TEXT.deleted),
            onError: (error) => show('error', error.message || M.deleteFailed),
            onSettled: () => setConfirmingDelete(false),
          })
        }
      />
    </ConsolePage>
  );
}
