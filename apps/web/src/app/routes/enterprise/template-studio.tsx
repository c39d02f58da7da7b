import { TemplateStudioScreen } from '@/features/template-studio/components/template-studio-screen';

/**
 * /enterprise/template-studio: every signed-in staff member may use the Studio (staff spec
 * section 6 restricts no designer tool); creating a template from a design is for privileged staff.
 */
export default function TemplateStudioRoute() {
  return <TemplateStudioScreen />;
}
