import type { EnrollmentCode } from '@flashbooth/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** ENROLLMENT_MESSAGES.failed (contracts/enrollment.ts, not in the zod-free rules bundle). */
export const ENROLLMENT_CODE_FAILED = 'Failed to make an enrollment code. Please try again.';

/**
 * POST devices/{id}/enrollment-code (super users and product admins): a one-time code a booth
 * computer enrolls with (in the one-line install command the console shows), valid 30 minutes. A new
 * code replaces the device's earlier one.
 */
export function createEnrollmentCode(deviceId: number): Promise<EnrollmentCode> {
  return apiRequest<EnrollmentCode>('enterprise', `devices/${deviceId}/enrollment-code`, {
    method: 'POST',
    fallbackMessage: ENROLLMENT_CODE_FAILED,
  });
}

export function useCreateEnrollmentCode(deviceId: number) {
  return useMutation({ mutationFn: () => createEnrollmentCode(deviceId) });
}
