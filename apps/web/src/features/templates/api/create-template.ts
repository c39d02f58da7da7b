import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createTemplate } from '@/api/templates/create-template';
import { templatesQueryOptions } from './get-templates';

/** The list's "Create Template" (super users and product admins); the list reloads after. */
export function useCreateTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTemplate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templatesQueryOptions().queryKey }),
  });
}
