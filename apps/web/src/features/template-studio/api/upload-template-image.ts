import type { Template } from '@flashbooth/contracts';
import { apiRequest } from '@/lib/api-client';
import { uploadWithProgress, type UploadProgress } from '@/lib/upload-with-progress';

export type TemplateImageKind = 'sample' | 'foreground';

const FAILED: Record<TemplateImageKind, string> = {
  sample: 'Failed to upload sample image. Please try again.',
  foreground: 'Failed to upload foreground image. Please try again.',
};

/**
 * A sample or foreground upload (staff spec sections 4 and 7): POST templates/{id}/{kind}/
 * presigned_upload (filename, contentType → {kind}_key, upload_url), PUT the file to upload_url
 * with its Content-Type, POST templates/{id}/{kind}/confirm ({kind}_key) → the template.
 */
export async function uploadTemplateImage(
  templateId: number,
  kind: TemplateImageKind,
  file: Blob,
  filename: string,
  onProgress?: (progress: UploadProgress) => void,
): Promise<Template> {
  const fallbackMessage = FAILED[kind];
  const contentType = file.type;
  const presign = await apiRequest<Record<string, string>>(
    'enterprise',
    `templates/${templateId}/${kind}/presigned_upload`,
    { method: 'POST', body: { filename, contentType }, fallbackMessage },
  );
  const key = presign[`${kind}_key`];
  const url = presign.upload_url;
  if (!key || !url) throw new Error(fallbackMessage);
  await uploadWithProgress(url, file, { contentType, onProgress, fallbackMessage });
  return apiRequest<Template>('enterprise', `templates/${templateId}/${kind}/confirm`, {
    method: 'POST',
    body: { [`${kind}_key`]: key },
    fallbackMessage,
  });
}
