import type { Template } from '@flashbooth/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { uploadWithProgress, type UploadProgress } from '@/lib/upload-with-progress';
import { TEMPLATE_DETAIL_TEXT, type UploadKind } from '../template-detail-model';
import { templateQueryOptions } from './get-template';
import { templatesQueryOptions } from './get-templates';

const FAILED = {
  sample: TEMPLATE_DETAIL_TEXT.sampleUploadFailed,
  foreground: TEMPLATE_DETAIL_TEXT.foregroundUploadFailed,
} as const;

/**
 * The sample or foreground upload (staff spec section 4): POST templates/{id}/{kind}/presigned_upload
 * with the file's name and type, PUT the file to upload_url with that type (with progress), then
 * POST …/{kind}/confirm with {kind}_key; answers the template with its new image.
 */
export async function uploadTemplateImage(
  templateId: number,
  kind: UploadKind,
  file: File,
  onProgress?: (progress: UploadProgress) => void,
): Promise<Template> {
  const fallbackMessage = FAILED[kind];
  const presign = await apiRequest<Record<string, string>>(
    'enterprise',
    `templates/${templateId}/${kind}/presigned_upload`,
    { method: 'POST', body: { filename: file.name, contentType: file.type }, fallbackMessage },
  );
  const key = presign[`${kind}_key`];
  const url = presign.upload_url;
  if (!key || !url) throw new Error(fallbackMessage);
  await uploadWithProgress(url, file, { contentType: file.type, onProgress, fallbackMessage });
  return apiRequest<Template>('enterprise', `templates/${templateId}/${kind}/confirm`, {
    method: 'POST',
    body: { [`${kind}_key`]: key },
    fallbackMessage,
  });
}

export function useUploadTemplateImage(templateId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: {
      kind: UploadKind;
      file: File;
      onProgress?: (progress: UploadProgress) => void;
    }) => uploadTemplateImage(templateId, input.kind, input.file, input.onProgress),
    onSuccess: (template) => {
      queryClient.setQueryData(templateQueryOptions(templateId).queryKey, template);
      return queryClient.invalidateQueries({ queryKey: templatesQueryOptions().queryKey });
    },
  });
}
