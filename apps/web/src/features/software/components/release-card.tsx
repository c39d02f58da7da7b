import type { SoftwareRelease } from '@flashbooth/contracts';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { formatUtcTimestamp } from '@/lib/format-date';
import { releaseNotesPreview, yesNo } from '../software-model';

/** Software releases: version, notes (cut) or "(No release notes)", File Uploaded, Created. */
export function ReleaseCard({ release }: { release: SoftwareRelease }) {
  return (
    <Link
      to={paths.enterprise.release.getHref(release.id)}
      className="card console-card software-card"
      data-testid="release-card"
    >
      <span className="console-card-title software-version-title">{release.version}</span>
      <span className={release.release_notes ? 'software-card-text' : 'software-card-text muted'}>
        {releaseNotesPreview(release.release_notes)}
      </span>
      <dl className="console-facts software-card-facts">
        <dt>File Uploaded</dt>
        <dd>
          <span
            className={`console-badge ${release.is_uploaded ? 'software-badge-yes' : 'software-badge-no'}`}
          >
            {yesNo(release.is_uploaded)}
          </span>
        </dd>
        <dt>Created</dt>
        <dd>{formatUtcTimestamp(release.created_at)}</dd>
      </dl>
    </Link>
  );
}

export function SoftwareCardSkeleton() {
  return (
    <div className="card console-card software-card" aria-hidden="true">
      <span className="skeleton skeleton-line" style={{ width: '55%', height: 18 }} />
      <span className="skeleton skeleton-line" style={{ width: '90%' }} />
      <span className="skeleton skeleton-line" style={{ width: '70%' }} />
      <span className="skeleton skeleton-line" style={{ width: '45%' }} />
    </div>
  );
}
