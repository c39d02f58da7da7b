import type { ReleasePresign, SoftwareRelease } from '@flashbooth/contracts';
import { SOFTWARE_MESSAGES } from '@flashbooth/contracts/rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { uploadWithProgress, type UploadProgress } from '@/lib/upload-with-progress';
import { releaseContentType } from '../software-model';
import { releaseQueryOptions } from './get-release';
import { releasesQueryOptions } from './get-releases';

export interface ReleaseUploadSteps {
  /** The file is going to the store (after the presign). */
  onUploadStart?: () => void;
  onProgress?: (progress: UploadProgress) => void;
  /** The file is in the store; the server is checking it (confirm). */
  onConfirming?: () => void;
  signal?: AbortSignal;
}

/**
 * The release upload (staff spec section 4): POST software/releases/{id}/file/presigned_upload
 * with the file's name and type (application/octet-stream unless an archive type), PUT the file
 * to upload_url with that type and its progress, then POST …/file/confirm with s3_key; answers
 * the release, which the caller then reloads.
 */
export async function uploadReleaseFile(
  releaseId: number,
  file: File,
  steps: ReleaseUploadSteps = {},
): Promise<SoftwareRelease> {
  const fallbackMessage = SOFTWARE_MESSAGES.uploadFailed;
  const contentType = releaseContentType(file);
  const presign = await apiRequest<ReleasePresign>(
    'enterprise',
    `software/releases/${releaseId}/file/presigned_upload`,
    {
      method: 'POST',
      body: { filename: file.name, contentType },
      fallbackMessage,
      signal: steps.signal,
    },
  );
  steps.onUploadStart?.();
  await uploadWithProgress(presign.upload_url, file, {
    contentType,
    onProgress: steps.onProgress,
    signal: steps.signal,
    fallbackMessage,
  });
  steps.onConfirming?.();
  return apiRequest<SoftwareRelease>('enterprise', `software/releases/${releaseId}/file/confirm`, {
    method: 'POST',
    body: { s3_key: presign.s3_key },
    fallbackMessage,
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
