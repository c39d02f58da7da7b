import { TemplatesScreen } from '@/features/templates/components/templates-screen';

/** /enterprise/templates: Templates (template_list). */
export default function TemplatesRoute() {
  return <TemplatesScreen />;
}
