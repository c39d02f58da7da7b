import { WallScreen } from '@/features/wall/components/wall-screen';

/** /regular/wall: the public wall. */
export default function WallRoute() {
  return <WallScreen />;
}
