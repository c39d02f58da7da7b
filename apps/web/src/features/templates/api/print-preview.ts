import type { TemplatePreviewRequest } from '@flashbooth/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '@/lib/api-download';
import { TEMPLATE_DETAIL_TEXT } from '../template-detail-model';

/**
 * POST templates/{id}/preview: the draft composed by the booth's own composition code on the
 * server, with sample photos and the stored foreground; a JPEG of the print's canvas size.
 */
export async function fetchPrintPreview(
  templateId: number,
  draft: TemplatePreviewRequest,
  signal?: AbortSignal,
): Promise<Blob> {
  const { blob } = await apiDownload('enterprise', `templates/${templateId}/preview`, {
    method: 'POST',
    body: draft,
    fallbackMessage: TEMPLATE_DETAIL_TEXT.previewFailed,
    signal,
  });
  return blob;
}

export function usePrintPreview(templateId: number) {
  return useMutation({
    mutationFn: (draft: TemplatePreviewRequest) => fetchPrintPreview(templateId, draft),
  });
}
