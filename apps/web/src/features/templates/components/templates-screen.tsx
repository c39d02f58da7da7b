import { useState } from 'react';
import { Breadcrumbs } from '@/components/console/breadcrumbs';
import { useStaffPermissions } from '@/components/console/use-staff-permissions';
import { ConsoleList } from '@/components/console/console-list';
import { ListPage } from '@/components/ui/list-page';
import { useTimedStatus } from '@/components/ui/status-message';
import { Toast } from '@/components/ui/toast';
import { paths } from '@/config/paths';
import { usePagedView, useSearchPaging } from '@/hooks/use-search-paging';
import { useTemplates } from '../api/get-templates';
import { TEMPLATE_STATUS_MS, TEMPLATE_TEXT, TEMPLATES_PAGE_SIZE } from '../templates-model';
import { CreateTemplateDialog } from './create-template-dialog';
import { TemplateCard, TemplateCardSkeleton } from './template-card';
import '@/components/console/console.css';
import './templates.css';

/** Templates (staff spec section 2: Template list). */
export function TemplatesScreen() {
  const { status, show } = useTimedStatus(TEMPLATE_STATUS_MS);
  // Spec section 6: no message on template pages when the permissions do not load.
  const permissions = useStaffPermissions();
  const paging = useSearchPaging();
  const templates = useTemplates(paging.search, paging.page);
  const { items, totalPages } = usePagedView(paging, templates, TEMPLATES_PAGE_SIZE);
  const [creating, setCreating] = useState(false);

  return (
    <ListPage
      className="console-page"
      title="Templates"
      breadcrumbs={
        <Breadcrumbs
          items={[{ label: 'Home', href: paths.home.getHref() }, { label: 'Templates' }]}
        />
      }
      paging={paging}
      query={templates}
      searchLabel="Search templates"
      searchPlaceholder="Search templates..."
      totalPages={totalPages}
      pagesLabel="Template pages"
      actions={
        permissions.can('template.manage') && (
          <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
            +Create
          </button>
        )
      }
      after={
        <>
          <Toast status={status} ms={TEMPLATE_STATUS_MS} />
          <CreateTemplateDialog
            open={creating}
            onClose={() => setCreating(false)}
            onCreated={(template) => {
              setCreating(false);
              show('success', TEMPLATE_TEXT.created(template.name));
            }}
          />
        </>
      }
    >
      <ConsoleList
        query={templates}
        items={items}
        listClassName="card-grid template-grid"
        listLabel="Templates"
        itemKey={(template) => template.id}
        renderItem={(template) => <TemplateCard template={template} />}
        loadingLabel="Loading templates…"
        renderSkeleton={(index) => <TemplateCardSkeleton index={index} />}
        failed={TEMPLATE_TEXT.loadFailed}
        empty={paging.search ? TEMPLATE_TEXT.noSearchMatch(paging.search) : TEMPLATE_TEXT.empty}
      />
    </ListPage>
  );
}
