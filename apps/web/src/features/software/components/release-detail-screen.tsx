import type { SoftwareRelease } from '@flashbooth/contracts';
import { SOFTWARE_MESSAGES } from '@flashbooth/contracts/rules';
import { DetailPage, DetailSkeleton, useDetailScreen } from '@/components/console/detail-page';
import { paths } from '@/config/paths';
import { useDeleteRelease } from '../api/delete-release';
import { releaseQueryOptions, useRelease } from '../api/get-release';
import {
  formatSizeMb,
  hideUrlQuery,
  SOFTWARE_SCREEN_TEXT,
  SOFTWARE_STATUS_MS,
} from '../software-model';
import { UploadedBadge } from './software-card';
import { DetailFacts, SoftwareActions } from './software-detail';
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
  const screen = useDetailScreen<'upload'>({
    remove: useDeleteRelease(releaseId),
    queryKey: releaseQueryOptions(releaseId).queryKey,
    list: { label: 'Software Releases', href: paths.enterprise.releases.getHref() },
    statusMs: SOFTWARE_STATUS_MS,
  });
  const release = useRelease(releaseId);

  return (
    <DetailPage
      screen={screen}
      className="console-narrow software-page"
      title={release.data ? `Release ${release.data.version}` : 'Software Release'}
      crumb={release.data?.version ?? 'Release'}
      query={release}
      skeleton={<DetailSkeleton label="Loading release…" className="card software-detail" />}
      failed={{ thing: 'software release', message: M.loadReleaseFailed }}
    >
      {(record) => (
        <>
          <SoftwareActions
            screen={screen}
            noun="Release"
            edit="Edit Details"
            step={{
              dialog: 'upload',
              label: record.is_uploaded ? 'Re-upload File' : 'Upload File',
            }}
            remove={{
              message: SOFTWARE_SCREEN_TEXT.deleteRelease(record.version, record.is_uploaded),
              deleted: M.releaseDeleted,
              failed: M.deleteReleaseFailed,
            }}
          />

          <div className="card software-detail">
            <DetailFacts record={record} after={<StoredFile release={record} />}>
              <dt>Version</dt>
              <dd>
                <span className="software-version">{record.version}</span>
              </dd>
              <dt>File Uploaded</dt>
              <dd data-testid="release-uploaded">
                <UploadedBadge uploaded={record.is_uploaded} />
              </dd>
            </DetailFacts>
            <section className="software-notes" aria-labelledby={`release-notes-${record.id}`}>
              <h2 className="console-section-title" id={`release-notes-${record.id}`}>
                Release Notes
              </h2>
              <p className={record.release_notes ? 'software-prose' : 'muted'}>
                {record.release_notes || SOFTWARE_SCREEN_TEXT.noReleaseNotes}
              </p>
            </section>
          </div>

          {screen.dialog === 'edit' && (
            <EditReleaseDialog
              release={record}
              onClose={screen.close}
              onSaved={screen.done(M.releaseUpdated)}
            />
          )}
          {screen.dialog === 'upload' && (
            <UploadReleaseDialog
              release={record}
              onClose={screen.close}
              onUploaded={screen.done(M.fileUploaded)}
            />
          )}
        </>
      )}
    </DetailPage>
  );
}
