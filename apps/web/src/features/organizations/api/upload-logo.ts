import type { LogoPresign, Organization } from '@flashbooth/contracts';
import { ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiRequest } from '@/lib/api-client';
import { organizationQueryOptions } from './get-organization';
import { organizationsQueryOptions } from './get-organizations';

/**
 * The logo upload (staff spec section 4): POST organizations/{id}/logo/presigned_upload with the
 * file's name and type, PUT the file to upload_url with that type, then POST …/logo/confirm with
 * logo_key; answers the organization with its new logo.
 */
export async function uploadLogo(orgId: number, file: File): Promise<Organization> {
  const fallbackMessage = ORGANIZATION_MESSAGES.logoUploadFailed;
  const presign = await apiRequest<LogoPresign>(
    'enterprise',
    `organizations/${orgId}/logo/presigned_upload`,
    { method: 'POST', body: { filename: file.name, contentType: file.type }, fallbackMessage },
  );
  const put = await fetch(presign.upload_url, {
    method: 'PUT',
    headers: { 'Content-Type': file.type },
    body: file,
  });
  if (!put.ok) throw new ApiError(fallbackMessage, put.status, 'upload_failed');
  return apiRequest<Organization>('enterprise', `organizations/${orgId}/logo/confirm`, {
    method: 'POST',
    body: { logo_key: presign.logo_key },
    fallbackMessage,
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
