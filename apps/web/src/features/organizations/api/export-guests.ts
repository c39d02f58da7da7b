import { guestsCsvFilename, ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '@/lib/api-download';
import { saveBlob } from '@/lib/save-blob';

/**
 * GET organizations/{id}/guests/export.csv with the list's search (an organization's admins and
 * privileged staff), through the API client so the bearer token goes with it; the browser then
 * saves the file.
 */
export async function exportGuests(
  orgId: number,
  search: string,
  orgName: string,
): Promise<string> {
  const { blob, filename } = await apiDownload(
    'enterprise',
    `organizations/${orgId}/guests/export.csv`,
    {
      query: { search },
      fallbackMessage: ORGANIZATION_MESSAGES.exportGuestsFailed,
    },
  );
  const name = filename ?? guestsCsvFilename(orgName);
  saveBlob(blob, name);
  return name;
}

export function useExportGuests(orgId: number) {
  return useMutation({
    mutationFn: ({ search, orgName }: { search: string; orgName: string }) =>
      exportGuests(orgId, search, orgName),
  });
}
