import type { Template } from '@flashbooth/contracts';
import { TEMPLATE_MESSAGES } from '@flashbooth/contracts/rules';
import { useState } from 'react';
import {
  TEMPLATE_IMAGE_UPLOAD_FAILED,
  type TemplateImageKind,
} from '@/api/templates/upload-template-image';
import {
  DeleteConfirm,
  DetailActions,
  DetailPage,
  LoadingCard,
  useDetailScreen,
} from '@/components/console/detail-page';
import { useStaffPermissions } from '@/components/console/use-staff-permissions';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/error-text';
import { useDeleteTemplate } from '../api/detail-delete-template';
import { useSaveTemplateDraft } from '../api/detail-save-draft';
import { templateQueryOptions, useTemplate } from '../api/get-template';
import { useUploadTemplateImage } from '../api/upload-template-image';
import {
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
} from '../template-detail-model';
import { TemplateEditPanel } from './template-detail-edit-panel';
import { EnlargeableImage, UploadButton } from './template-detail-images';
import '@/components/console/console.css';
import './template-detail.css';

const UPLOADED = {
  sample: TEMPLATE_MESSAGES.sampleUploaded,
  foreground: TEMPLATE_MESSAGES.foregroundUploaded,
} as const;

/** The template's placeholder while it loads: its two images and a line. */
function TemplateSkeleton() {
  return (
    <LoadingCard label="Loading template…" className="card template-detail">
      <div className="template-detail-images" aria-hidden="true">
        <span className="template-image template-image-sample skeleton" />
        <span className="template-image template-image-foreground skeleton" />
      </div>
      <span className="skeleton skeleton-line" style={{ width: '40%' }} aria-hidden="true" />
    </LoadingCard>
  );
}

/** Template detail (staff spec section 2): view, the inline edit panel, uploads, delete. */
export function TemplateDetailScreen({ templateId }: { templateId: number }) {
  const screen = useDetailScreen({
    remove: useDeleteTemplate(templateId),
    queryKey: templateQueryOptions(templateId).queryKey,
    list: { label: 'Templates', href: paths.enterprise.templates.getHref() },
    statusMs: TEMPLATE_STATUS_MS,
  });
  const { show, busy } = screen;
  // Template pages show no message when the permissions fail to load (staff spec section 6).
  const permissions = useStaffPermissions();
  const template = useTemplate(templateId);
  const save = useSaveTemplateDraft(templateId);
  const upload = useUploadTemplateImage(templateId);
  const [draft, setDraft] = useState<TemplateDraft | null>(null);
  const [editError, setEditError] = useState<string | null>(null);
  const [uploading, setUploading] = useState<{ kind: TemplateImageKind; percent: number } | null>(
    null,
  );

  const canManage = permissions.can('template.manage');
  const editing = draft !== null;
  const uploadDisabled = editing || uploading !== null || upload.isPending || busy;

  const startUpload = (kind: TemplateImageKind, file: File) => {
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
        onError: (error) => show('error', errorText(error, TEMPLATE_IMAGE_UPLOAD_FAILED[kind])),
        onSettled: () => setUploading(null),
      },
    );
  };

  const detail = (record: Template) => {
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
        onError: (error) => setEditError(errorText(error, T.updateFailed)),
      });
    };

    const imageBlock = (kind: TemplateImageKind) => (
      <div className={`template-detail-image template-detail-${kind}`}>
        <h2 className="template-image-title">{kind === 'sample' ? 'Sample' : 'Foreground'}</h2>
        <EnlargeableImage
          kind={kind}
          url={kind === 'sample' ? record.sample_s3_url : record.foreground_s3_url}
          orientation={record.orientation}
          name={record.name}
          slots={record.images}
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
      <>
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

        <DetailActions
          label="Template actions"
          className="template-detail-actions"
          busy={busy}
          actions={[
            {
              label: 'Edit Template',
              className: 'btn-primary',
              shown: canManage,
              disabled: editing || uploading !== null,
              onClick: () => {
                setEditError(null);
                setDraft(draftFromTemplate(record));
              },
            },
            { label: 'View Organizations', href: paths.enterprise.templateOrgs.getHref(record.id) },
            {
              label: 'Delete Template',
              className: 'btn-danger',
              shown: canManage,
              disabled: editing,
              onClick: () => screen.open('delete'),
            },
          ]}
        />

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

        <DeleteConfirm
          screen={screen}
          title={T.deleteTitle}
          message={T.deleteConfirm(record.name)}
          deleted={TEMPLATE_MESSAGES.deleted}
          failed={T.deleteFailed}
        />
      </>
    );
  };

  return (
    <DetailPage
      screen={screen}
      className="template-detail-page"
      title={templateTitle(template.data)}
      query={template}
      skeleton={<TemplateSkeleton />}
      failed={{ thing: 'template', message: T.loadFailed }}
    >
      {detail}
    </DetailPage>
  );
}
