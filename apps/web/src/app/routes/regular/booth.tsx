import { useParams } from 'react-router';
import { BoothScreen } from '@/features/booth/components/booth-screen';

/** /regular/photobooths/{deviceId} and the QR short link /b/{deviceId}. */
export default function BoothRoute() {
  const { deviceId } = useParams();
  return <BoothScreen deviceIdParam={deviceId} />;
}
