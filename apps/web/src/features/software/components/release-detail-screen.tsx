import type { SoftwareRelease } from '@flashbooth/contracts';
import { SOFTWARE_MESSAGES } from '@flashbooth/contracts/rules';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Breadcrumbs } from '@/components/console/breadcrumbs';
import { ConsolePage } from '@/components/console/console-page';
import { ConfirmDialog } from '@/components/ui/dialog';
import { LoadErrorPanel } from '@/components/ui/list-states';
import { useTimedStatus } from '@/components/ui/status-message';
import { Toast } from '@/components/ui/toast';
import { paths } from '@/config/paths';
import { formatUtcTimestamp } from '@/lib/format-date';
import { useDeleteRelease } from '../api/delete-release';
import { releaseQueryOptions, useRelease } from '../api/get-release';
import {
  createdByLabel,
  failureText,
  formatSizeMb,
  hideUrlQuery,
  RETURN_AFTER_DELETE_MS,
  SOFTWARE_SCREEN_TEXT,
  SOFTWARE_STATUS_MS,
  yesNo,
} from '../software-model';
import { BackLink, DetailSkeleton } from './detail-parts';
import { EditReleaseDialog } from './edit-release-dialog';
import { UploadReleaseDialog } from './upload-release-dialog';
import '@/components/console/console.css';
import './software.css';

const M = SOFTWARE_MESSAGES;

/** Storage key, download URL without its query (with the expiry note), size and checksum. */
function StoredFile({ release }: { release: SoftwareRelease }) {
  if (!release.is_uploaded || !release.s3_key) return null;
  return (
    <>
      <dt>Storage Key</dt>
      <dd>
        <code className="software-code" data-testid="release-s3-key">
          {release.s3_key}
        </code>
      </dd>
      <dt>Download URL</dt>
      <dd>
        {release.s3_url ? (
          <>
            <code className="software-code" data-testid="release-s3-url">
              {hideUrlQuery(release.s3_url)}
            </code>
            <p className="field-hint software-url-note">
              {SOFTWARE_SCREEN_TEXT.urlExpiry(release.s3_url_expiry)}
            </p>
            <a className="btn btn-secondary software-download" href={release.s3_url} download>
              Download file
            </a>
          </>
        ) : (
          SOFTWARE_SCREEN_TEXT.none
        )}
      </dd>
      {release.size_bytes !== null && (
        <>
          <dt>File Size</dt>
          <dd>{formatSizeMb(release.size_bytes)}</dd>
        </>
      )}
      {release.sha256 && (
        <>
          <dt>SHA-256</dt>
          <dd>
            <code className="software-code">{release.sha256}</code>
          </dd>
        </>
      )}
    </>
  );
}

/** Software release detail (staff spec section 2); only mounted for those who may manage software. */
export function ReleaseDetailScreen({ releaseId }: { releaseId: number }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { status, show } = useTimedStatus(SOFTWARE_STATUS_MS);
  const release = useRelease(releaseId);
  const remove = useDeleteRelease(releaseId);
  const [dialog, setDialog] = useState<'edit' | 'upload' | 'delete' | null>(null);
  const deleted = remove.isSuccess;

  // After a delete, back to the list after 1.5 s (as for channels).
  useEffect(() => {
    if (!deleted) return;
    const timer = setTimeout(() => {
      queryClient.removeQueries({ queryKey: releaseQueryOptions(releaseId).queryKey });
      void navigate(paths.enterprise.releases.getHref(), { replace: true });
    }, RETURN_AFTER_DELETE_MS);
    return () => clearTimeout(timer);
  }, [deleted, navigate, releaseId, queryClient]);

  const record = release.data;
  const title = record ? `Release ${record.version}` : 'Software Release';
  const breadcrumbs = (
    <Breadcrumbs
      items={[
        { label: 'Software Releases', href: paths.enterprise.releases.getHref() },
        { label: record?.version ?? 'Release' },
      ]}
    />
  );
  const page = (children: React.ReactNode) => (
    <ConsolePage
      className="console-narrow software-page"
      breadcrumbs={breadcrumbs}
      title={title}
      after={<Toast status={status} ms={SOFTWARE_STATUS_MS} />}
    >
      {children}
    </ConsolePage>
  );

  if (release.isPending) return page(<DetailSkeleton label="Loading release…" />);
  if (release.isError || !record) {
    return page(
      <>
        <LoadErrorPanel
          className="card panel-message panel-message-error console-panel"
          message={M.loadReleaseFailed}
          query={release}
        />
        <BackLink to={paths.enterprise.releases.getHref()}>Back to Software Releases</BackLink>
      </>,
    );
  }

  const busy = remove.isPending || deleted;

  return page(
    <>
      <div className="console-actions software-actions" role="group" aria-label="Release actions">
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => setDialog('edit')}
          disabled={busy}
        >
          Edit Details
        </button>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => setDialog('upload')}
          disabled={busy}
        >
          {record.is_uploaded ? 'Re-upload File' : 'Upload File'}
        </button>
        <button
          type="button"
          className="btn btn-danger"
          onClick={() => setDialog('delete')}
          disabled={busy}
        >
          Delete Release
        </button>
      </div>

      <div className="card software-detail">
        <dl className="console-facts software-facts">
          <dt>ID</dt>
          <dd>{record.id}</dd>
          <dt>Version</dt>
          <dd>
            <span className="software-version">{record.version}</span>
          </dd>
          <dt>File Uploaded</dt>
          <dd data-testid="release-uploaded">
            <span
              className={`console-badge ${record.is_uploaded ? 'software-badge-yes' : 'software-badge-no'}`}
            >
              {yesNo(record.is_uploaded)}
            </span>
          </dd>
          <dt>Created At</dt>
          <dd>{formatUtcTimestamp(record.created_at)}</dd>
          <dt>Created By</dt>
          <dd>{createdByLabel(record)}</dd>
          <StoredFile release={record} />
        </dl>
        <section className="software-notes" aria-labelledby={`release-notes-${record.id}`}>
          <h2 className="console-section-title" id={`release-notes-${record.id}`}>
            Release Notes
          </h2>
          <p className={record.release_notes ? 'software-prose' : 'muted'}>
            {record.release_notes || SOFTWARE_SCREEN_TEXT.noReleaseNotes}
          </p>
        </section>
      </div>

      {dialog === 'edit' && (
        <EditReleaseDialog
          release={record}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            show('success', M.releaseUpdated);
          }}
        />
      )}
      {dialog === 'upload' && (
        <UploadReleaseDialog
          release={record}
          onClose={() => setDialog(null)}
          onUploaded={() => {
            setDialog(null);
            show('success', M.fileUploaded);
          }}
        />
      )}
      <ConfirmDialog
        open={dialog === 'delete'}
        title="Delete Release"
        message={SOFTWARE_SCREEN_TEXT.deleteRelease(record.version, record.is_uploaded)}
        confirmLabel="Yes, Delete"
        danger
        busy={remove.isPending}
        onCancel={() => setDialog(null)}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => show('success', M.releaseDeleted),
            onError: (error) => show('error', failureText(error, M.deleteReleaseFailed)),
            onSettled: () => setDialog(null),
          })
        }
      />
    </>,
  );
}
