import type { DataExport, DataExportStatus, ErasureResult } from '@flashbooth/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { GUEST_PRIVACY_TEXT, personExportPollMs } from '../guest-privacy-model';

const personExportKey = (personId: number) => ['privacy', 'people', personId, 'export'] as const;

/** GET privacy/people/{id}/data-export: a visitor's latest export (super users). */
export function usePersonExport(personId: number, enabled: boolean) {
  return useQuery({
    queryKey: personExportKey(personId),
    queryFn: ({ signal }) =>
      apiRequest<DataExportStatus>('enterprise', `privacy/people/${personId}/data-export`, {
        fallbackMessage: GUEST_PRIVACY_TEXT.exportLoadFailed,
        signal,
      }),
    enabled,
    refetchInterval: (query) => personExportPollMs(query.state.data?.current),
  });
}

/** POST privacy/people/{id}/data-export: exports a visitor's data on their request (logged). */
export function useRequestPersonExport(personId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest<DataExport>('enterprise', `privacy/people/${personId}/data-export`, {
        method: 'POST',
        fallbackMessage: GUEST_PRIVACY_TEXT.exportFailed,
      }),
    onSuccess: (current) => queryClient.setQueryData(personExportKey(personId), { current }),
  });
}

/** POST privacy/people/{id}/erase: erases a visitor's account and data on request (logged). */
export function useErasePerson(orgId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (personId: number) =>
      apiRequest<ErasureResult>('enterprise', `privacy/people/${personId}/erase`, {
        method: 'POST',
        fallbackMessage: GUEST_PRIVACY_TEXT.eraseFailed,
      }),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: ['organizations', 'guests', orgId] }),
  });
}
