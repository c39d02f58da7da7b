import type { InviteOutcome, OrganizationInvitation } from '@flashbooth/contracts';
import { ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { selfQueryOptions } from '@/api/users/get-self';
import { apiRequest } from '@/lib/api-client';
import { organizationsQueryOptions } from './get-organizations';
import { myInvitationsQueryOptions } from './get-my-invitations';

export type InvitationAnswer = 'accept' | 'deny';

/** POST organizations/{id}/invites/accept or …/deny, naming the invitation. */
export function respondToInvitation(
  invitation: Pick<OrganizationInvitation, 'id' | 'org_id'>,
  answer: InvitationAnswer,
): Promise<InviteOutcome> {
  return apiRequest<InviteOutcome>(
    'enterprise',
    `organizations/${invitation.org_id}/invites/${answer}`,
    {
      method: 'POST',
      body: { invite_id: invitation.id },
      fallbackMessage:
        answer === 'accept' ? ORGANIZATION_MESSAGES.acceptFailed : ORGANIZATION_MESSAGES.denyFailed,
    },
  );
}

/**
 * Accepting adds a membership: the organization list and the person's own record (their
 * organizations, hence their permissions) reload with the invitations.
 */
export function useRespondToInvitation(userId: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      invitation,
      answer,
    }: {
      invitation: OrganizationInvitation;
      answer: InvitationAnswer;
    }) => respondToInvitation(invitation, answer),
    onSettled: (_outcome, _error, { answer }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: myInvitationsQueryOptions(userId).queryKey }),
        ...(answer === 'accept'
          ? [
              queryClient.invalidateQueries({ queryKey: organizationsQueryOptions().queryKey }),
              queryClient.invalidateQueries({ queryKey: selfQueryOptions('enterprise').queryKey }),
            ]
          : []),
      ]),
  });
}
