import { useParams } from 'react-router';
import { DeviceDetailScreen } from '@/features/devices/components/device-detail-screen';
import { parseId } from '@/lib/parse-id';
import NotFound from '../not-found';

/** /enterprise/devices/{deviceId}: Device detail (device_detail). */
export default function DeviceDetailRoute() {
  const deviceId = parseId(useParams().deviceId);
  // Another device is another screen: nothing of the previous one's state carries over.
  return deviceId ? <DeviceDetailScreen key={deviceId} deviceId={deviceId} /> : <NotFound />;
}
