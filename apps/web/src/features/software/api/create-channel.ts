import type { SoftwareChannel } from '@flashbooth/contracts';
import { SOFTWARE_MESSAGES } from '@flashbooth/contracts/rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { ChannelCreateBody } from '../software-model';
import { channelsQueryOptions } from './get-channels';

/** POST software/channels {name, description, release_id}. */
export function createChannel(body: ChannelCreateBody): Promise<SoftwareChannel> {
  return apiRequest<SoftwareChannel>('enterprise', 'software/channels', {
    method: 'POST',
    body,
    fallbackMessage: SOFTWARE_MESSAGES.createChannelFailed,
  });
}

export function useCreateChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createChannel,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelsQueryOptions().queryKey }),
  });
}
