import { useParams } from 'react-router';
import { DeviceLogsScreen } from '@/features/devices/components/device-logs-screen';
import { parseId } from '@/lib/parse-id';
import NotFound from '../not-found';

/** /enterprise/devices/{deviceId}/logs: Device error logs (device_logs). */
export default function DeviceLogsRoute() {
  const deviceId = parseId(useParams().deviceId);
  return deviceId ? <DeviceLogsScreen key={deviceId} deviceId={deviceId} /> : <NotFound />;
}
