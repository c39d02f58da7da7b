import type { OrganizationInvitation } from '@flashbooth/contracts';
import {
  ORGANIZATION_MESSAGES,
  ORGANIZATIONS_PAGE_SIZE,
  denyInvitationConfirm,
  noOrganizationsMessage,
} from '@flashbooth/contracts/rules';
import { useState } from 'react';
import { useStaffPermissions } from '@/components/console/use-staff-permissions';
import { ConfirmDialog } from '@/components/ui/dialog';
import { ConsoleList } from '@/components/console/console-list';
import { ListPage } from '@/components/ui/list-page';
import { useTimedStatus } from '@/components/ui/status-message';
import { Toast } from '@/components/ui/toast';
import { appConfig } from '@/config/app-config';
import { usePagedView, useSearchPaging } from '@/hooks/use-search-paging';
import { errorText } from '@/lib/error-text';
import { useMyInvitations } from '../api/get-my-invitations';
import { useOrganizations } from '../api/get-organizations';
import { useRespondToInvitation } from '../api/respond-to-invitation';
import { ORGANIZATION_SCREEN_TEXT, ORGANIZATION_STATUS_MS } from '../organizations-model';
import { CreateOrganizationDialog } from './create-organization-dialog';
import { InvitationCard } from './invitation-card';
import { OrganizationCard, OrganizationCardSkeleton } from './organization-card';
import '@/components/console/console.css';
import './organizations.css';

const M = ORGANIZATION_MESSAGES;

/** The empty list's text with the installation's contact address as a mail link. */
function NoOrganizations({ email }: { email: string }) {
  const [before, after = ''] = noOrganizationsMessage(email).split(email);
  return (
    <p>
      {before}
      <a href={`mailto:${email}`}>{email}</a>
      {after}
    </p>
  );
}

/** Organizations (staff spec section 2: Organizations list). */
export function OrganizationsScreen() {
  const { status, show } = useTimedStatus(ORGANIZATION_STATUS_MS);
  const permissions = useStaffPermissions(show);
  const paging = useSearchPaging();
  const { search, page } = paging;
  const organizations = useOrganizations(search, page);
  const { items, totalPages } = usePagedView(paging, organizations, ORGANIZATIONS_PAGE_SIZE);
  const invitations = useMyInvitations(permissions.userId);
  const respond = useRespondToInvitation(permissions.userId);
  const [creating, setCreating] = useState(false);
  const [denying, setDenying] = useState<OrganizationInvitation | null>(null);

  // Spec: a failed load of the invitations is an empty list, silently.
  const pending = invitations.isError ? [] : (invitations.data?.items ?? []);
  const busyInvitation = respond.isPending ? respond.variables.invitation.id : null;

  const answer = (invitation: OrganizationInvitation, kind: 'accept' | 'deny') =>
    respond.mutate(
      { invitation, answer: kind },
      {
        onSuccess: () =>
          show(
            'success',
            kind === 'accept'
              ? ORGANIZATION_SCREEN_TEXT.accepted(invitation.org_name)
              : ORGANIZATION_SCREEN_TEXT.denied(invitation.org_name),
          ),
        onError: (error) =>
          show('error', errorText(error, kind === 'accept' ? M.acceptFailed : M.denyFailed)),
        onSettled: () => setDenying(null),
      },
    );

  return (
    <ListPage
      className="console-page"
      title="Organizations"
      paging={paging}
      query={organizations}
      searchLabel="Search organizations"
      searchPlaceholder="Search organizations..."
      totalPages={totalPages}
      pagesLabel="Organization pages"
      actions={
        permissions.can('organization.create') && (
          <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
            +Create
          </button>
        )
      }
      after={
        <>
          <Toast status={status} ms={ORGANIZATION_STATUS_MS} />
          <CreateOrganizationDialog
            open={creating}
            onClose={() => setCreating(false)}
            onCreated={(organization) => {
              setCreating(false);
              show('success', ORGANIZATION_SCREEN_TEXT.created(organization.name));
            }}
          />
          <ConfirmDialog
            open={denying !== null}
            title="Deny Invitation"
            message={denying ? denyInvitationConfirm(denying.org_name) : ''}
            confirmLabel="Yes, Deny"
            danger
            busy={respond.isPending}
            onConfirm={() => denying && answer(denying, 'deny')}
            onCancel={() => setDenying(null)}
          />
        </>
      }
    >
      {pending.length > 0 && (
        <section className="console-section" aria-labelledby="org-invitations-title">
          <h2 className="console-section-title" id="org-invitations-title">
            Invitations <span className="console-count">{pending.length}</span>
          </h2>
          <ul className="card-grid console-grid" aria-label="Invitations">
            {pending.map((invitation) => (
              <li key={invitation.id} className="card-grid-item">
                <InvitationCard
                  invitation={invitation}
                  busy={busyInvitation === invitation.id}
                  onAccept={() => answer(invitation, 'accept')}
                  onDeny={() => setDenying(invitation)}
                />
              </li>
            ))}
          </ul>
        </section>
      )}
      <section className="console-section" aria-labelledby="org-list-title">
        <h2 className="console-section-title" id="org-list-title">
          Your Organizations
        </h2>
        <ConsoleList
          query={organizations}
          items={items}
          listLabel="Your organizations"
          itemKey={(organization) => organization.id}
          renderItem={(organization) => <OrganizationCard organization={organization} />}
          loadingLabel="Loading organizations…"
          renderSkeleton={() => <OrganizationCardSkeleton />}
          failed={M.loadFailed}
          empty={
            search ? (
              ORGANIZATION_SCREEN_TEXT.noSearchMatch(search)
            ) : (
              <NoOrganizations email={appConfig.supportEmail} />
            )
          }
        />
      </section>
    </ListPage>
  );
}
