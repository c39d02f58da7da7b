import { ChannelsScreen } from '@/features/software/components/channels-screen';
import { SoftwareGate } from '@/features/software/components/software-gate';

/** /enterprise/software/channels: Software channels (software_channels), privileged staff only. */
export default function SoftwareChannelsRoute() {
  return (
    <SoftwareGate title="Software Channels">
      <ChannelsScreen />
    </SoftwareGate>
  );
}
