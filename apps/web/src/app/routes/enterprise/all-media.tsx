import { AllMediaScreen } from '@/features/staff-media/components/all-media-screen';

/** /enterprise/media/all: All Media (super users and product admins). */
export default function AllMediaRoute() {
  return <AllMediaScreen />;
}
