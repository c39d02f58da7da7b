import type { Pool, ProfilePatchBody, User } from '@flashbooth/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { selfQueryOptions } from '@/api/users/get-self';
import { useSession } from '@/lib/session';

/** PATCH users/self with the changed profile fields; answers the updated user. */
export function updateSelf(pool: Pool, patch: ProfilePatchBody): Promise<User> {
  return apiRequest<User>(pool, 'users/self', {
    method: 'PATCH',
    body: patch,
    fallbackMessage: 'Failed to update profile.',
  });
}

/** Saves, then keeps the query cache and the stored session user in step. */
export function useUpdateSelf(pool: Pool) {
  const queryClient = useQueryClient();
  const { updateUser } = useSession();
  return useMutation({
    mutationFn: (patch: ProfilePatchBody) => updateSelf(pool, patch),
    onSuccess: (user) => {
      queryClient.setQueryData(selfQueryOptions(pool).queryKey, user);
      updateUser(user);
    },
  });
}
