import { DevicesScreen } from '@/features/devices/components/devices-screen';

/** /enterprise/devices: Devices (device_list). */
export default function DevicesRoute() {
  return <DevicesScreen />;
}
