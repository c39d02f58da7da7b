import type { ModerationLogPage } from '@flashbooth/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { MODERATION_LOG_MESSAGES, MODERATION_LOG_PAGE_SIZE } from '../moderation-log-model';

/** GET organizations/{id}/moderation-log: newest first, a page at `offset`. */
export function getModerationLog(
  orgId: number,
  offset: number,
  signal?: AbortSignal,
): Promise<ModerationLogPage> {
  return apiRequest<ModerationLogPage>('enterprise', `organizations/${orgId}/moderation-log`, {
    query: { limit: MODERATION_LOG_PAGE_SIZE, offset },
    fallbackMessage: MODERATION_LOG_MESSAGES.loadFailed,
    signal,
  });
}

export const moderationLogQueryOptions = (orgId: number, offset: number) =>
  queryOptions({
    queryKey: ['organizations', orgId, 'moderation-log', offset] as const,
    queryFn: ({ signal }) => getModerationLog(orgId, offset, signal),
  });

/** The log's page; loaded only once the panel is opened (`enabled`). */
export function useModerationLog(orgId: number, offset: number, enabled: boolean) {
  return useQuery({
    ...moderationLogQueryOptions(orgId, offset),
    enabled,
    placeholderData: keepPreviousData,
  });
}
