import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SaveStep } from '../template-detail-model';
import { templateQueryOptions } from './get-template';
import { templatesQueryOptions } from './get-templates';
import { updateTemplate } from './detail-update-template';
import { createSlot } from './slots-create';
import { deleteSlot } from './slots-delete';
import { updateSlot } from './slots-update';

/**
 * Save of the edit panel: the calls of `saveSteps` (the spec's order, staff spec section 4,
 * unless the orientation changes), one at a time, so a failure stops there. Then the template
 * is reloaded (also after a failure, since part of the draft may already be saved).
 */
export async function saveTemplateDraft(templateId: number, steps: SaveStep[]): Promise<void> {
  for (const step of steps) {
    if (step.kind === 'create') await createSlot(templateId, step.body);
    else if (step.kind === 'update') await updateSlot(templateId, step.id, step.patch);
    else if (step.kind === 'delete') await deleteSlot(templateId, step.id);
    else await updateTemplate(templateId, step.patch);
  }
}

export function useSaveTemplateDraft(templateId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (steps: SaveStep[]) => saveTemplateDraft(templateId, steps),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: templateQueryOptions(templateId).queryKey }),
        queryClient.invalidateQueries({ queryKey: templatesQueryOptions().queryKey }),
      ]),
  });
}
