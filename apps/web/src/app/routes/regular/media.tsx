import { MediaScreen } from '@/features/media/components/media-screen';

/** /regular/media: My Media. */
export default function MediaRoute() {
  return <MediaScreen />;
}
