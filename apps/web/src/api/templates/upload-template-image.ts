import type { ForegroundPresign, SamplePresign, Template } from '@flashbooth/contracts';
import { apiRequest } from '@/lib/api-client';
import { uploadThroughPresignedUrl } from '@/lib/presigned-upload';
import type { UploadProgress } from '@/lib/upload-with-progress';

export type TemplateImageKind = 'sample' | 'foreground';

/** What a failed upload says when the server sent no message. */
export const TEMPLATE_IMAGE_UPLOAD_FAILED: Record<TemplateImageKind, string> = {
  sample: 'Failed to upload sample image. Please try again.',
  foreground: 'Failed to upload foreground image. Please try again.',
};

export interface TemplateImageUploadOptions {
  /** The name the presign is told (the file's own name when it is a File). */
  filename?: string;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

/**
 * A sample or foreground upload (staff spec sections 4 and 7), through the one presigned upload:
 * POST templates/{id}/{kind}/presigned_upload (filename, contentType → {kind}_key, upload_url),
 * PUT the file to upload_url with its Content-Type (with progress), POST templates/{id}/{kind}/
 * confirm ({kind}_key) → the template with its new image. The template detail screen and the
 * Studio's "Create template from this design" both upload through this.
 */
export function uploadTemplateImage(
  templateId: number,
  kind: TemplateImageKind,
  file: Blob,
  options: TemplateImageUploadOptions = {},
): Promise<Template> {
  const fallbackMessage = TEMPLATE_IMAGE_UPLOAD_FAILED[kind];
  const contentType = file.type;
  const filename = options.filename ?? (file instanceof File ? file.name : '');
  return uploadThroughPresignedUrl({
    presign: async (signal) => {
      const presign = await apiRequest<Partial<SamplePresign & ForegroundPresign>>(
        'enterprise',
        `templates/${templateId}/${kind}/presigned_upload`,
        { method: 'POST', body: { filename, contentType }, fallbackMessage, signal },
      );
      const key = kind === 'sample' ? presign.sample_key : presign.foreground_key;
      return { url: presign.upload_url ?? '', key: key ?? '' };
    },
    file,
    contentType,
    onProgress: options.onProgress,
    signal: options.signal,
    fallbackMessage,
    confirm: (key) =>
      apiRequest<Template>('enterprise', `templates/${templateId}/${kind}/confirm`, {
        method: 'POST',
        body: { [`${kind}_key`]: key },
        fallbackMessage,
      }),
  });
}
