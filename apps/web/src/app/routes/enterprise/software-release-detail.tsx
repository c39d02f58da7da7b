import { useParams } from 'react-router';
import { ReleaseDetailScreen } from '@/features/software/components/release-detail-screen';
import { SoftwareGate } from '@/features/software/components/software-gate';
import { parseId } from '@/lib/parse-id';
import NotFound from '../not-found';

/** /enterprise/software/releases/{releaseId}: Software release detail (software_release_detail). */
export default function SoftwareReleaseDetailRoute() {
  const releaseId = parseId(useParams().releaseId);
  if (!releaseId) return <NotFound />;
  return (
    <SoftwareGate title="Software Release">
      <ReleaseDetailScreen key={releaseId} releaseId={releaseId} />
    </SoftwareGate>
  );
}
