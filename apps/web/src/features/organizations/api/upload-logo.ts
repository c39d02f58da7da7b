import type { LogoPresign, Organization } from '@flashbooth/contracts';
import { ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { uploadThroughPresignedUrl } from '@/lib/presigned-upload';
import { organizationQueryOptions } from '@/api/organizations/get-organization';
import { organizationsQueryOptions } from './get-organizations';

/**
 * The logo upload (staff spec section 4), through the one presigned upload: POST
 * organizations/{id}/logo/presigned_upload with the file's name and type, PUT the file to
 * upload_url with that type, then POST …/logo/confirm with logo_key; answers the organization with
 * its new logo.
 */
export function uploadLogo(orgId: number, file: File): Promise<Organization> {
  const fallbackMessage = ORGANIZATION_MESSAGES.logoUploadFailed;
  return uploadThroughPresignedUrl({
    presign: async (signal) => {
      const presign = await apiRequest<LogoPresign>(
        'enterprise',
        `organizations/${orgId}/logo/presigned_upload`,
        {
          method: 'POST',
          body: { filename: file.name, contentType: file.type },
          fallbackMessage,
          signal,
        },
      );
      return { url: presign.upload_url, key: presign.logo_key };
    },
    file,
    fallbackMessage,
    confirm: (key) =>
      apiRequest<Organization>('enterprise', `organizations/${orgId}/logo/confirm`, {
        method: 'POST',
        body: { logo_key: key },
        fallbackMessage,
      }),
  });
}

export function useUploadLogo(orgId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => uploadLogo(orgId, file),
    onSuccess: (organization) => {
      queryClient.setQueryData(organizationQueryOptions(orgId).queryKey, organization);
      return queryClient.invalidateQueries({ queryKey: organizationsQueryOptions().queryKey });
    },
  });
}
