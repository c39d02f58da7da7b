import type { Device } from '@flashbooth/contracts';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { formatUtcTimestamp } from '@/lib/format-date';
import { cardOrganization } from '../devices-model';
import { DeviceStatus } from './device-status';

/** Devices list: name, organization or "(No Organization)", thing name, created time, status. */
export function DeviceCard({ device }: { device: Device }) {
  return (
    <Link
      to={paths.enterprise.device.getHref(device.id)}
      className="card console-card device-card"
      data-testid="device-card"
    >
      <span className="device-card-head">
        <span className="console-card-title">{device.name}</span>
        <DeviceStatus status={device.status} />
      </span>
      <dl className="console-facts device-card-facts">
        <dt>Organization</dt>
        <dd className={device.org_id === null ? 'device-none' : undefined}>
          {cardOrganization(device)}
        </dd>
        <dt>Thing name</dt>
        <dd className="device-mono">{device.thing_name}</dd>
        <dt>Created</dt>
        <dd>{formatUtcTimestamp(device.created_at)}</dd>
      </dl>
    </Link>
  );
}
