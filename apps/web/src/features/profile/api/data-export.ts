import type { DataExport, DataExportStatus } from '@flashbooth/contracts';
import { PRIVACY_MESSAGES as M } from '@flashbooth/contracts/rules';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { exportRefetchInterval } from '../privacy-model';

/** GET users/self/data-export: the visitor's latest data export, or null. */
export function getDataExport(signal?: AbortSignal): Promise<DataExportStatus> {
  return apiRequest<DataExportStatus>('regular', 'users/self/data-export', {
    fallbackMessage: M.exportLoadFailed,
    signal,
  });
}

export const dataExportQueryOptions = () =>
  queryOptions({
    queryKey: ['data-export', 'self'] as const,
    queryFn: ({ signal }) => getDataExport(signal),
  });

/** The latest export, asked again every few seconds while it is being built. */
export function useDataExport() {
  return useQuery({
    ...dataExportQueryOptions(),
    refetchInterval: (query) => exportRefetchInterval(query.state.data?.current),
  });
}

/** POST users/self/data-export: starts building a ZIP (or returns the one being built). */
export function requestDataExport(): Promise<DataExport> {
  return apiRequest<DataExport>('regular', 'users/self/data-export', {
    method: 'POST',
    fallbackMessage: M.exportRequestFailed,
  });
}

export function useRequestDataExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestDataExport,
    onSuccess: (current) =>
      queryClient.setQueryData(dataExportQueryOptions().queryKey, { current }),
  });
}
