import { useParams } from 'react-router';
import { TemplateDetailScreen } from '@/features/templates/components/template-detail-screen';
import { parseId } from '@/lib/parse-id';
import NotFound from '../not-found';

/** /enterprise/templates/{template_id}: Template detail (template_detail). */
export default function TemplateDetailRoute() {
  const templateId = parseId(useParams().templateId);
  // Another template is another screen: no draft or upload of the previous one carries over.
  return templateId ? (
    <TemplateDetailScreen key={templateId} templateId={templateId} />
  ) : (
    <NotFound />
  );
}
