import { useParams } from 'react-router';
import { CaptureScreen } from '@/features/capture/components/capture-screen';

/** /regular/photobooths/{deviceId}/capture?template_id={templateId}. */
export default function CaptureRoute() {
  const { deviceId } = useParams();
  return <CaptureScreen deviceIdParam={deviceId} />;
}
