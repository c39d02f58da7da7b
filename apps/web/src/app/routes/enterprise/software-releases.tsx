import { ReleasesScreen } from '@/features/software/components/releases-screen';
import { SoftwareGate } from '@/features/software/components/software-gate';

/** /enterprise/software/releases: Software releases (software_releases), privileged staff only. */
export default function SoftwareReleasesRoute() {
  return (
    <SoftwareGate title="Software Releases">
      <ReleasesScreen />
    </SoftwareGate>
  );
}
