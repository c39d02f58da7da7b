import { useParams } from 'react-router';
import { ChannelDetailScreen } from '@/features/software/components/channel-detail-screen';
import { SoftwareGate } from '@/features/software/components/software-gate';
import { parseId } from '@/lib/parse-id';
import NotFound from '../not-found';

/** /enterprise/software/channels/{channelId}: Software channel detail (software_channel_detail). */
export default function SoftwareChannelDetailRoute() {
  const channelId = parseId(useParams().channelId);
  if (!channelId) return <NotFound />;
  return (
    <SoftwareGate title="Software Channel">
      {/* A new channel is a new screen: nothing of the previous one's state carries over. */}
      <ChannelDetailScreen key={channelId} channelId={channelId} />
    </SoftwareGate>
  );
}
