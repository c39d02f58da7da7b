import { useParams } from 'react-router';
import { DevicePosterScreen } from '@/features/devices/poster/components/device-poster-screen';
import { parseId } from '@/lib/parse-id';
import NotFound from '../not-found';

/**
 * /enterprise/devices/{deviceId}/poster: the booth's printable QR poster (issue 11). Lazy, so
 * the QR library loads only here.
 */
export default function DevicePosterRoute() {
  const deviceId = parseId(useParams().deviceId);
  return deviceId ? <DevicePosterScreen key={deviceId} deviceId={deviceId} /> : <NotFound />;
}
