import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SavePlan } from '../template-detail-model';
import { templateQueryOptions } from './get-template';
import { templatesQueryOptions } from './get-templates';
import { updateTemplate } from './detail-update-template';
import { createSlot } from './slots-create';
import { deleteSlot } from './slots-delete';
import { updateSlot } from './slots-update';

/**
 * Save of the edit panel, in the spec's order (staff spec section 4): create the new slots,
 * update the changed ones, delete the removed ones, then update the template's own fields;
 * one call at a time, so a failure stops there. Then the template is reloaded (also after a
 * failure, since part of the draft may already be saved).
 */
export async function saveTemplateDraft(templateId: number, plan: SavePlan): Promise<void> {
  for (const body of plan.create) await createSlot(templateId, body);
  for (const { id, patch } of plan.update) await updateSlot(templateId, id, patch);
  for (const id of plan.remove) await deleteSlot(templateId, id);
  if (plan.template) await updateTemplate(templateId, plan.template);
}

export function useSaveTemplateDraft(templateId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (plan: SavePlan) => saveTemplateDraft(templateId, plan),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: templateQueryOptions(templateId).queryKey }),
        queryClient.invalidateQueries({ queryKey: templatesQueryOptions().queryKey }),
      ]),
  });
}
