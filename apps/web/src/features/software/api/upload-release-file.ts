import type { ReleasePresign, SoftwareRelease } from '@flashbooth/contracts';
import { SOFTWARE_MESSAGES } from '@flashbooth/contracts/rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { uploadThroughPresignedUrl, type PresignedUploadOptions } from '@/lib/presigned-upload';
import { releaseContentType } from '../software-model';
import { releaseQueryOptions } from './get-release';
import { releasesQueryOptions } from './get-releases';

/** The dialog's view of the upload: its steps, its progress, and its cancel. */
export type ReleaseUploadSteps = Pick<
  PresignedUploadOptions<SoftwareRelease>,
  'onUploadStart' | 'onProgress' | 'onConfirming' | 'signal'
>;

/**
 * The release upload (staff spec section 4), through the one presigned upload: POST
 * software/releases/{id}/file/presigned_upload with the file's name and type
 * (application/octet-stream unless an archive type), PUT the file to upload_url with that type and
 * its progress (cancellable), then POST …/file/confirm with s3_key; answers the release, which the
 * caller then reloads.
 */
export function uploadReleaseFile(
  releaseId: number,
  file: File,
  steps: ReleaseUploadSteps = {},
): Promise<SoftwareRelease> {
  const fallbackMessage = SOFTWARE_MESSAGES.uploadFailed;
  const contentType = releaseContentType(file);
  return uploadThroughPresignedUrl({
    presign: async (signal) => {
      const presign = await apiRequest<ReleasePresign>(
        'enterprise',
        `software/releases/${releaseId}/file/presigned_upload`,
        { method: 'POST', body: { filename: file.name, contentType }, fallbackMessage, signal },
      );
      return { url: presign.upload_url, key: presign.s3_key };
    },
    file,
    contentType,
    ...steps,
    fallbackMessage,
    confirm: (key) =>
      apiRequest<SoftwareRelease>('enterprise', `software/releases/${releaseId}/file/confirm`, {
        method: 'POST',
        body: { s3_key: key },
        fallbackMessage,
      }),
  });
}

export function useUploadReleaseFile(releaseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, steps }: { file: File; steps?: ReleaseUploadSteps }) =>
      uploadReleaseFile(releaseId, file, steps),
    onSuccess: async () => {
      // Spec: then reload the release (a fresh download link with it).
      await queryClient.invalidateQueries({ queryKey: releaseQueryOptions(releaseId).queryKey });
      return queryClient.invalidateQueries({ queryKey: releasesQueryOptions().queryKey });
    },
  });
}
