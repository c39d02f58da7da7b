import { TEMPLATE_MESSAGES } from '@flashbooth/contracts/rules';
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
import { useDeleteTemplate } from '../api/detail-delete-template';
import { useSaveTemplateDraft } from '../api/detail-save-draft';
import { templateQueryOptions, useTemplate } from '../api/get-template';
import { useUploadTemplateImage } from '../api/upload-template-image';
import {
  RETURN_AFTER_DELETE_MS,
  TEMPLATE_DETAIL_TEXT as T,
  TEMPLATE_STATUS_MS,
  captureSummary,
  draftFromTemplate,
  planIsEmpty,
  planSave,
  saveSteps,
  templateTitle,
  uploadProblem,
  type TemplateDraft,
  type UploadKind,
} from '../template-detail-model';
import { TemplateEditPanel } from './template-detail-edit-panel';
import { EnlargeableImage, UploadButton } from './template-detail-images';
import '@/components/console/console.css';
import './template-detail.css';

const UPLOADED = {
  sample: TEMPLATE_MESSAGES.sampleUploaded,
  foreground: TEMPLATE_MESSAGES.foregroundUploaded,
} as const;

/** Template detail (staff spec section 2): view, the inline edit panel, uploads, delete. */
export function TemplateDetailScreen({ templateId }: { templateId: number }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { status, show } = useTimedStatus(TEMPLATE_STATUS_MS);
  // Template pages show no message when the permissions fail to load (staff spec section 6).
  const permissions = useStaffPermissions();
  const template = useTemplate(templateId);
  const save = useSaveTemplateDraft(templateId);
  const remove = useDeleteTemplate(templateId);
  const upload = useUploadTemplateImage(templateId);
  const [draft, setDraft] = useState<TemplateDraft | null>(null);
  const [editError, setEditError] = useState<string | null>(null);
  const [uploading, setUploading] = useState<{ kind: UploadKind; percent: number } | null>(null);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const deleted = remove.isSuccess;

  useEffect(() => {
    if (!deleted) return;
    const timer = setTimeout(() => {
      queryClient.removeQueries({ queryKey: templateQueryOptions(templateId).queryKey });
      void navigate(paths.enterprise.templates.getHref(), { replace: true });
    }, RETURN_AFTER_DELETE_MS);
    return () => clearTimeout(timer);
  }, [deleted, navigate, templateId, queryClient]);

  const record = template.data;
  const name = templateTitle(record);
  const breadcrumbs = (
    <Breadcrumbs
      items={[{ label: 'Templates', href: paths.enterprise.templates.getHref() }, { label: name }]}
    />
  );
  const toast = <Toast status={status} ms={TEMPLATE_STATUS_MS} />;

  if (template.isPending) {
    return (
      <ConsolePage
        className="template-detail-page"
        breadcrumbs={breadcrumbs}
        title={name}
        after={toast}
      >
        <div className="card template-detail" aria-busy="true">
          <span className="visually-hidden" role="status">
            Loading template…
          </span>
          <div className="template-detail-images" aria-hidden="true">
            <span className="template-image template-image-sample skeleton" />
            <span className="template-image template-image-foreground skeleton" />
          </div>
          <span className="skeleton skeleton-line" style={{ width: '40%' }} aria-hidden="true" />
        </div>
      </ConsolePage>
    );
  }

  if (template.isError || !record) {
    return (
      <ConsolePage
        className="template-detail-page"
        breadcrumbs={breadcrumbs}
        title={name}
        after={toast}
      >
        <LoadFailure
          error={template.error}
          thing="template"
          failedMessage={T.loadFailed}
          query={template}
          back={{ href: paths.enterprise.templates.getHref(), label: 'Back to Templates' }}
        />
      </ConsolePage>
    );
  }

  const canManage = permissions.can('template.manage');
  const editing = draft !== null;
  const busy = remove.isPending || deleted;
  const uploadDisabled = editing || uploading !== null || upload.isPending || busy;

  const startUpload = (kind: UploadKind, file: File) => {
    const problem = uploadProblem(kind, file);
    if (problem) {
      show('error', problem);
      return;
    }
    setUploading({ kind, percent: 0 });
    upload.mutate(
      {
        kind,
        file,
        onProgress: ({ percent }) => setUploading({ kind, percent }),
      },
      {
        onSuccess: () => show('success', UPLOADED[kind]),
        onError: (error) =>
          show(
            'error',
            error.message || (kind === 'sample' ? T.sampleUploadFailed : T.foregroundUploadFailed),
          ),
        onSettled: () => setUploading(null),
      },
    );
  };

  const onSave = () => {
    if (!draft) return;
    const result = planSave(record, draft);
    if (!result.ok) {
      setEditError(result.message);
      return;
    }
    if (planIsEmpty(result.plan)) {
      setEditError(TEMPLATE_MESSAGES.noChanges);
      return;
    }
    setEditError(null);
    save.mutate(saveSteps(record, result.plan), {
      onSuccess: () => {
        setDraft(null);
        show('success', TEMPLATE_MESSAGES.updated);
      },
      // The inline error shows the server's message when it sent one.
      onError: (error) => setEditError(error.message || T.updateFailed),
    });
  };

  const imageBlock = (kind: UploadKind) => (
    <div className={`template-detail-image template-detail-${kind}`}>
      <h2 className="template-image-title">{kind === 'sample' ? 'Sample' : 'Foreground'}</h2>
      <EnlargeableImage
        kind={kind}
        url={kind === 'sample' ? record.sample_s3_url : record.foreground_s3_url}
        orientation={record.orientation}
        name={record.name}
      />
      {canManage && (
        <UploadButton
          kind={kind}
          disabled={uploadDisabled}
          progress={uploading?.kind === kind ? uploading.percent : null}
          onFile={(file) => startUpload(kind, file)}
        />
      )}
    </div>
  );

  return (
    <ConsolePage
      className="template-detail-page"
      breadcrumbs={breadcrumbs}
      title={name}
      after={toast}
    >
      <div className="card template-detail">
        <div className={`template-detail-images template-detail-images-${record.orientation}`}>
          {imageBlock('sample')}
          {imageBlock('foreground')}
        </div>
        <dl className="console-facts template-detail-facts">
          <dt>ID</dt>
          <dd>{record.id}</dd>
          <dt>Orientation</dt>
          <dd className="template-capitalize">{record.orientation}</dd>
          <dt>{T.cutLabel}</dt>
          <dd>{record.is_cut ? 'Yes' : 'No'}</dd>
          <dt>{T.duplicatedLabel}</dt>
          <dd>{record.is_duplicated ? 'Yes' : 'No'}</dd>
          <dt>Capture</dt>
          <dd data-testid="template-capture">{captureSummary(record)}</dd>
          <dt>Image slots</dt>
          <dd>{record.images.length}</dd>
        </dl>
      </div>

      <div
        className="console-actions template-detail-actions"
        role="group"
        aria-label="Template actions"
      >
        {canManage && (
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => {
              setEditError(null);
              setDraft(draftFromTemplate(record));
            }}
            disabled={busy || editing || uploading !== null}
          >
            Edit Template
          </button>
        )}
        <Link className="btn btn-secondary" to={paths.enterprise.templateOrgs.getHref(record.id)}>
          View Organizations
        </Link>
        {canManage && (
          <button
            type="button"
            className="btn btn-danger"
            onClick={() => setConfirmingDelete(true)}
            disabled={busy || editing}
          >
            Delete Template
          </button>
        )}
      </div>

      {draft && (
        <TemplateEditPanel
          template={record}
          draft={draft}
          onDraft={setDraft}
          saving={save.isPending}
          error={editError}
          onSave={onSave}
          onCancel={() => {
            setDraft(null);
            setEditError(null);
          }}
        />
      )}

      <ConfirmDialog
        open={confirmingDelete}
        title={T.deleteTitle}
        message={T.deleteConfirm(record.name)}
        confirmLabel="Yes, Delete"
        danger
        busy={remove.isPending}
        onCancel={() => setConfirmingDelete(false)}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => show('success', TEMPLATE_MESSAGES.deleted),
            onError: (error) => show('error', error.message || T.deleteFailed),
            onSettled: () => setConfirmingDelete(false),
          })
        }
      />
    </ConsolePage>
  );
}
