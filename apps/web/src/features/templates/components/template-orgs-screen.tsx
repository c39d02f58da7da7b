import type { TemplateOrganization } from '@flashbooth/contracts';
import { useState } from 'react';
import { Breadcrumbs } from '@/components/console/breadcrumbs';
import { ConsolePage } from '@/components/console/console-page';
import { useStaffPermissions } from '@/components/console/use-staff-permissions';
import { ConfirmDialog } from '@/components/ui/dialog';
import { isRefusal, LoadFailure } from '@/components/console/load-failure';
import { ConsoleList } from '@/components/console/console-list';
import { useTimedStatus } from '@/components/ui/status-message';
import { Toast } from '@/components/ui/toast';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/error-text';
import { useTemplate } from '../api/get-template';
import { useTemplateOrgs } from '../api/get-template-orgs';
import { useRemoveTemplateOrg } from '../api/remove-template-org';
import {
  orgLabel,
  TEMPLATE_ORG_SKELETONS,
  TEMPLATE_STATUS_MS,
  TEMPLATE_TEXT,
  templateTitle,
} from '../templates-model';
import { AddTemplateOrgDialog } from './add-template-org-dialog';
import { TemplateOrgCard, TemplateOrgCardSkeleton } from './template-org-card';
import '@/components/console/console.css';
import './templates.css';

/** Template organizations (staff spec section 2): where the template is offered. */
export function TemplateOrgsScreen({ templateId }: { templateId: number }) {
  const { status, show } = useTimedStatus(TEMPLATE_STATUS_MS);
  // Spec section 6: no message on template pages when the permissions do not load.
  const permissions = useStaffPermissions();
  const template = useTemplate(templateId);
  const orgs = useTemplateOrgs(templateId);
  const remove = useRemoveTemplateOrg(templateId);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<TemplateOrganization | null>(null);

  const name = templateTitle(template.isError ? undefined : template.data);
  // Nothing to add to a template that is not there (or not this person's to see).
  const canManage = permissions.can('template.manage') && !(orgs.isError && isRefusal(orgs.error));
  const items = orgs.isError ? [] : (orgs.data?.items ?? []);

  const confirmRemove = () => {
    if (!removing) {
      show('error', TEMPLATE_TEXT.noOrgSelected);
      return;
    }
    const org = removing;
    remove.mutate(org, {
      onSuccess: () => show('success', TEMPLATE_TEXT.removed(orgLabel(org))),
      onError: (error) => show('error', errorText(error, TEMPLATE_TEXT.removeFailed)),
      onSettled: () => setRemoving(null),
    });
  };

  return (
    <ConsolePage
      title={`${name} Organizations`}
      breadcrumbs={
        <Breadcrumbs
          items={[
            { label: 'Templates', href: paths.enterprise.templates.getHref() },
            { label: name, href: paths.enterprise.template.getHref(templateId) },
            { label: 'Organizations' },
          ]}
        />
      }
      actions={
        canManage && (
          <button type="button" className="btn btn-primary" onClick={() => setAdding(true)}>
            +Add Organization
          </button>
        )
      }
      after={
        <>
          <Toast status={status} ms={TEMPLATE_STATUS_MS} />
          {adding && (
            <AddTemplateOrgDialog
              templateId={templateId}
              onClose={() => setAdding(false)}
              onAdded={(orgId) => {
                setAdding(false);
                show('success', TEMPLATE_TEXT.associated(orgId));
              }}
            />
          )}
          <ConfirmDialog
            open={removing !== null}
            title="Confirm Removal"
            message={removing ? TEMPLATE_TEXT.removeConfirm(orgLabel(removing)) : ''}
            confirmLabel="Remove"
            danger
            busy={remove.isPending}
            onConfirm={confirmRemove}
            onCancel={() => setRemoving(null)}
          />
        </>
      }
    >
      <ConsoleList
        query={orgs}
        items={items}
        listLabel="Associated organizations"
        itemKey={(org) => org.id}
        renderItem={(org) => (
          <TemplateOrgCard
            org={org}
            canRemove={canManage}
            busy={remove.isPending && remove.variables.id === org.id}
            onRemove={() => setRemoving(org)}
          />
        )}
        loadingLabel="Loading organizations…"
        skeletonCount={TEMPLATE_ORG_SKELETONS}
        renderSkeleton={() => <TemplateOrgCardSkeleton />}
        failed={
          <LoadFailure
            error={orgs.error}
            thing="template"
            failedMessage={TEMPLATE_TEXT.orgsLoadFailed}
            query={orgs}
            back={{ href: paths.enterprise.templates.getHref(), label: 'Back to Templates' }}
          />
        }
        empty={TEMPLATE_TEXT.noOrgs}
      />
    </ConsolePage>
  );
}
