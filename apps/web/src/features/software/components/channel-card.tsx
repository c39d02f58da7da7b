import type { SoftwareChannel } from '@flashbooth/contracts';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { formatUtcTimestamp } from '@/lib/format-date';
import { channelDescription, channelReleaseVersion } from '../software-model';

/** Software channels: name, description (cut) or "(No description)", release, created. */
export function ChannelCard({ channel }: { channel: SoftwareChannel }) {
  return (
    <Link
      to={paths.enterprise.channel.getHref(channel.id)}
      className="card console-card software-card"
      data-testid="channel-card"
    >
      <span className="console-card-title">{channel.name}</span>
      <span className={channel.description ? 'software-card-text' : 'software-card-text muted'}>
        {channelDescription(channel.description)}
      </span>
      <dl className="console-facts software-card-facts">
        <dt>Release</dt>
        <dd>
          {channel.release_version ? (
            <span className="software-version">{channel.release_version}</span>
          ) : (
            channelReleaseVersion(channel)
          )}
        </dd>
        <dt>Created</dt>
        <dd>{formatUtcTimestamp(channel.created_at)}</dd>
      </dl>
    </Link>
  );
}
