import type { SoftwareRelease } from '@flashbooth/contracts';
import { paths } from '@/config/paths';
import { releaseNotesPreview } from '../software-model';
import { SoftwareCard, UploadedBadge } from './software-card';

/** Software releases: version, notes (cut) or "(No release notes)", File Uploaded, Created. */
export function ReleaseCard({ release }: { release: SoftwareRelease }) {
  return (
    <SoftwareCard
      href={paths.enterprise.release.getHref(release.id)}
      testId="release-card"
      title={release.version}
      titleClassName="software-version-title"
      text={releaseNotesPreview(release.release_notes)}
      muted={!release.release_notes}
      fact={{ label: 'File Uploaded', value: <UploadedBadge uploaded={release.is_uploaded} /> }}
      createdAt={release.created_at}
    />
  );
}
