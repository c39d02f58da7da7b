import type { SoftwareReleaseList } from '@flashbooth/contracts';
import {
  SOFTWARE_MESSAGES,
  SOFTWARE_PAGE_SIZE,
  SOFTWARE_PICKER_LIMIT,
} from '@flashbooth/contracts/rules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** GET software/releases: one page of 9, newest first, searching version and notes. */
export function getReleases(
  params: { search: string; page: number },
  signal?: AbortSignal,
): Promise<SoftwareReleaseList> {
  return apiRequest<SoftwareReleaseList>('enterprise', 'software/releases', {
    query: {
      search: params.search,
      limit: SOFTWARE_PAGE_SIZE,
      offset: (params.page - 1) * SOFTWARE_PAGE_SIZE,
    },
    fallbackMessage: SOFTWARE_MESSAGES.loadReleasesFailed,
    signal,
  });
}

/** Without arguments: the key of every release query (pages and picker), which mutations invalidate. */
export const releasesQueryOptions = (params?: { search: string; page: number }) =>
  queryOptions({
    queryKey: params
      ? (['software', 'releases', 'list', params.search, params.page] as const)
      : (['software', 'releases', 'list'] as const),
    queryFn: ({ signal }) => getReleases(params ?? { search: '', page: 1 }, signal),
  });

export function useReleases(search: string, page: number) {
  return useQuery(releasesQueryOptions({ search, page }));
}

/** The channel dialogs' release select: up to 200 releases (spec section 9). */
export function getReleaseOptions(signal?: AbortSignal): Promise<SoftwareReleaseList> {
  return apiRequest<SoftwareReleaseList>('enterprise', 'software/releases', {
    query: { limit: SOFTWARE_PICKER_LIMIT, offset: 0 },
    fallbackMessage: SOFTWARE_MESSAGES.loadReleaseOptionsFailed,
    signal,
  });
}

export const releaseOptionsQueryOptions = () =>
  queryOptions({
    queryKey: ['software', 'releases', 'list', 'picker'] as const,
    queryFn: ({ signal }) => getReleaseOptions(signal),
  });

/** Loaded only while a dialog that needs it is open. */
export function useReleaseOptions(enabled: boolean) {
  return useQuery({ ...releaseOptionsQueryOptions(), enabled });
}
