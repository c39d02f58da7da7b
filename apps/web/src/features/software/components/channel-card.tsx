import type { SoftwareChannel } from '@flashbooth/contracts';
import { paths } from '@/config/paths';
import { channelDescription, channelReleaseVersion } from '../software-model';
import { SoftwareCard } from './software-card';

/** Software channels: name, description (cut) or "(No description)", release, created. */
export function ChannelCard({ channel }: { channel: SoftwareChannel }) {
  return (
    <SoftwareCard
      href={paths.enterprise.channel.getHref(channel.id)}
      testId="channel-card"
      title={channel.name}
      text={channelDescription(channel.description)}
      muted={!channel.description}
      fact={{
        label: 'Release',
        value: channel.release_version ? (
          <span className="software-version">{channel.release_version}</span>
        ) : (
          channelReleaseVersion(channel)
        ),
      }}
      createdAt={channel.created_at}
    />
  );
}
