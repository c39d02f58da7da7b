import { SOFTWARE_MESSAGES } from '@flashbooth/contracts/rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { channelsQueryOptions } from './get-channels';

/** DELETE software/channels/{id} (its booths then follow no channel). */
export function deleteChannel(channelId: number): Promise<void> {
  return apiRequest<void>('enterprise', `software/channels/${channelId}`, {
    method: 'DELETE',
    fallbackMessage: SOFTWARE_MESSAGES.deleteChannelFailed,
  });
}

export function useDeleteChannel(channelId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteChannel(channelId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelsQueryOptions().queryKey }),
  });
}
