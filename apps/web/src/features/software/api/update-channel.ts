import type { SoftwareChannel } from '@flashbooth/contracts';
import { SOFTWARE_MESSAGES } from '@flashbooth/contracts/rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { channelQueryOptions } from './get-channel';
import { channelsQueryOptions } from './get-channels';

/** The edit dialog's {name, description} or the link dialog's {release_id} (null unlinks). */
export type ChannelPatchBody =
  { name?: string; description?: string } | { release_id: number | null };

/** PATCH software/channels/{id}; answers the channel as it now is. */
export function updateChannel(
  channelId: number,
  body: ChannelPatchBody,
  fallbackMessage: string = SOFTWARE_MESSAGES.updateChannelFailed,
): Promise<SoftwareChannel> {
  return apiRequest<SoftwareChannel>('enterprise', `software/channels/${channelId}`, {
    method: 'PATCH',
    body,
    fallbackMessage,
  });
}

/** Edit Channel, or Link Release (`link`: the spec's failure text for a link). */
export function useUpdateChannel(channelId: number, kind: 'edit' | 'link') {
  const queryClient = useQueryClient();
  const fallback =
    kind === 'link' ? SOFTWARE_MESSAGES.linkReleaseFailed : SOFTWARE_MESSAGES.updateChannelFailed;
  return useMutation({
    mutationFn: (body: ChannelPatchBody) => updateChannel(channelId, body, fallback),
    onSuccess: (channel) => {
      queryClient.setQueryData(channelQueryOptions(channelId).queryKey, channel);
      return queryClient.invalidateQueries({ queryKey: channelsQueryOptions().queryKey });
    },
  });
}
