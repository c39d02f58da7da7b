import type { OrganizationUser } from '@flashbooth/contracts';
import { ORGANIZATION_MESSAGES, ORGANIZATION_USERS_PAGE_SIZE } from '@flashbooth/contracts/rules';
import { useState } from 'react';
import { Breadcrumbs } from '@/components/console/breadcrumbs';
import { CardSkeleton } from '@/components/console/card-skeleton';
import { useStaffPermissions } from '@/components/console/use-staff-permissions';
import { ConfirmDialog } from '@/components/ui/dialog';
import { LoadFailure } from '@/components/console/load-failure';
import { ConsoleList } from '@/components/console/console-list';
import { ListPage } from '@/components/ui/list-page';
import { useTimedStatus } from '@/components/ui/status-message';
import { Toast } from '@/components/ui/toast';
import { paths } from '@/config/paths';
import { usePagedView, useSearchPaging } from '@/hooks/use-search-paging';
import { useCancelInvitation } from '../api/cancel-invitation';
import { useOrganization } from '@/api/organizations/get-organization';
import { errorText } from '@/lib/error-text';
import { useOrganizationUsers } from '../api/get-organization-users';
import { useRemoveOrganizationUser } from '../api/remove-organization-user';
import {
  ORGANIZATION_SCREEN_TEXT,
  ORGANIZATION_STATUS_MS,
  organizationTitle,
} from '../organizations-model';
import { EditRoleDialog } from './edit-role-dialog';
import { InviteUserDialog } from './invite-user-dialog';
import { SentInvitationCard } from './sent-invitation-card';
import { UserCard } from './user-card';
import '@/components/console/console.css';
import './organizations.css';

const M = ORGANIZATION_MESSAGES;

/** Organization users (staff spec section 2): members, Invitations Sent, and their dialogs. */
export function OrganizationUsersScreen({ orgId }: { orgId: number }) {
  const { status, show } = useTimedStatus(ORGANIZATION_STATUS_MS);
  const permissions = useStaffPermissions(show);
  const organization = useOrganization(orgId);
  const paging = useSearchPaging();
  const { search, page } = paging;
  const users = useOrganizationUsers(orgId, search, page);
  const { items, totalPages } = usePagedView(paging, users, ORGANIZATION_USERS_PAGE_SIZE);
  const invites = users.isError ? [] : (users.data?.invites ?? []);
  const remove = useRemoveOrganizationUser(orgId);
  const cancelInvite = useCancelInvitation(orgId);
  const [inviting, setInviting] = useState(false);
  const [editing, setEditing] = useState<OrganizationUser | null>(null);
  const [removing, setRemoving] = useState<OrganizationUser | null>(null);

  const orgName = organizationTitle(organization.isError ? undefined : organization.data);
  const canInvite = permissions.can('organization.invite', orgId);
  const canManage =
    permissions.can('organization.editRole', orgId) &&
    permissions.can('organization.removeUser', orgId);
  const canCancel = permissions.can('organization.cancelInvite', orgId);
  const isSelf = (user: OrganizationUser) => permissions.userId === user.id;

  const onEdit = (user: OrganizationUser) => {
    if (isSelf(user)) show('error', M.ownRole);
    else setEditing(user);
  };
  const onRemove = (user: OrganizationUser) => {
    if (isSelf(user)) show('error', M.removeSelf);
    else setRemoving(user);
  };

  return (
    <ListPage
      className="console-page"
      title={`${orgName} Users`}
      breadcrumbs={
        <Breadcrumbs
          items={[
            { label: 'Organizations', href: paths.enterprise.organizations.getHref() },
            { label: orgName, href: paths.enterprise.organization.getHref(orgId) },
            { label: 'Users' },
          ]}
        />
      }
      actions={
        canInvite && (
          <button type="button" className="btn btn-primary" onClick={() => setInviting(true)}>
            +Invite
          </button>
        )
      }
      paging={paging}
      query={users}
      searchLabel="Search users"
      searchPlaceholder="Search users..."
      totalPages={totalPages}
      pagesLabel="User pages"
      after={
        <>
          {invites.length > 0 && (
            <section className="console-section" aria-labelledby="sent-invitations-title">
              <h2 className="console-section-title" id="sent-invitations-title">
                Invitations Sent <span className="console-count">{invites.length}</span>
              </h2>
              <ul className="card-grid console-grid" aria-label="Invitations sent">
                {invites.map((invitation) => (
                  <li key={invitation.PK} className="card-grid-item">
                    <SentInvitationCard
                      invitation={invitation}
                      canCancel={canCancel}
                      busy={cancelInvite.isPending && cancelInvite.variables === invitation.id}
                      onCancel={() =>
                        cancelInvite.mutate(invitation.id, {
                          onSuccess: () =>
                            show('success', ORGANIZATION_SCREEN_TEXT.inviteCancelled),
                          onError: (error) => show('error', errorText(error, M.cancelInviteFailed)),
                        })
                      }
                    />
                  </li>
                ))}
              </ul>
            </section>
          )}
          <Toast status={status} ms={ORGANIZATION_STATUS_MS} />
          {inviting && (
            <InviteUserDialog
              orgId={orgId}
              onClose={() => setInviting(false)}
              onInvited={(phone) => {
                setInviting(false);
                show('success', ORGANIZATION_SCREEN_TEXT.invited(phone));
              }}
            />
          )}
          {editing && (
            <EditRoleDialog
              orgId={orgId}
              user={editing}
              selfId={permissions.userId}
              onClose={() => setEditing(null)}
              onSaved={() => {
                setEditing(null);
                show('success', ORGANIZATION_SCREEN_TEXT.roleUpdated);
              }}
            />
          )}
          <ConfirmDialog
            open={removing !== null}
            title="Confirm Removal"
            message={M.removeUserConfirm}
            confirmLabel="Yes, Remove"
            danger
            busy={remove.isPending}
            onCancel={() => setRemoving(null)}
            onConfirm={() =>
              removing &&
              remove.mutate(removing.id, {
                onSuccess: () => show('success', ORGANIZATION_SCREEN_TEXT.removed),
                onError: (error) => show('error', errorText(error, M.removeUserFailed)),
                onSettled: () => setRemoving(null),
              })
            }
          />
        </>
      }
    >
      <ConsoleList
        query={users}
        items={items}
        listLabel={`${orgName} users`}
        itemKey={(user) => user.id}
        renderItem={(user) => (
          <UserCard
            user={user}
            canManage={canManage}
            isSelf={isSelf(user)}
            busy={remove.isPending && remove.variables === user.id}
            onEdit={() => onEdit(user)}
            onRemove={() => onRemove(user)}
          />
        )}
        loadingLabel="Loading users…"
        skeletonCount={4}
        renderSkeleton={() => <CardSkeleton />}
        failed={
          <LoadFailure
            error={users.error}
            thing="organization"
            failedMessage={M.loadUsersFailed}
            query={users}
            back={{
              href: paths.enterprise.organizations.getHref(),
              label: 'Back to Organizations',
            }}
          />
        }
        empty={M.noUsers}
      />
    </ListPage>
  );
}
