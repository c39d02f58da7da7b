import { useParams } from 'react-router';
import { KioskWallScreen } from '@/features/wall/kiosk/kiosk-wall-screen';
import { parseId } from '@/lib/parse-id';

/** /wall/{orgId}: a venue's kiosk wall for its screen (open to everyone). */
export default function KioskWallRoute() {
  const { orgId } = useParams();
  return <KioskWallScreen orgId={parseId(orgId)} />;
}
