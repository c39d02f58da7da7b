import { useParams } from 'react-router';
import { TemplateOrgsScreen } from '@/features/templates/components/template-orgs-screen';
import { parseId } from '@/lib/parse-id';
import NotFound from '../not-found';

/** /enterprise/templates/{template_id}/orgs: Template organizations (template_orgs). */
export default function TemplateOrgsRoute() {
  const templateId = parseId(useParams().templateId);
  return templateId ? (
    <TemplateOrgsScreen key={templateId} templateId={templateId} />
  ) : (
    <NotFound />
  );
}
