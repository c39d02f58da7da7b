import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type TemplateImageKind, uploadTemplateImage } from '@/api/templates/upload-template-image';
import type { UploadProgress } from '@/lib/upload-with-progress';
import { templateQueryOptions } from './get-template';
import { templatesQueryOptions } from './get-templates';

/**
 * The detail screen's sample or foreground upload (the shared presign → PUT → confirm, with
 * progress); the answered template replaces the cached one and the list reloads.
 */
export function useUploadTemplateImage(templateId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: {
      kind: TemplateImageKind;
      file: File;
      onProgress?: (progress: UploadProgress) => void;
    }) => uploadTemplateImage(templateId, input.kind, input.file, { onProgress: input.onProgress }),
    onSuccess: (template) => {
      queryClient.setQueryData(templateQueryOptions(templateId).queryKey, template);
      return queryClient.invalidateQueries({ queryKey: templatesQueryOptions().queryKey });
    },
  });
}
