import type { Template } from '@flashbooth/contracts';
import { useMutation } from '@tanstack/react-query';
import { createTemplate } from '@/api/templates/create-template';
import { uploadTemplateImage } from '@/api/templates/upload-template-image';
import {
  layoutOf,
  layoutSlots,
  outputFileNames,
  type CreateStep,
  type LayoutName,
} from '../template-studio-model';
import { createTemplateImage } from './create-template-image';

export interface DesignOutputs {
  layout: LayoutName;
  png: Blob;
  jpg: Blob;
}

/** Which step failed, the template if it was made by then, and the reason. */
export class CreateFromDesignError extends Error {
  constructor(
    readonly step: CreateStep,
    readonly templateId: number | null,
    readonly reason: string,
  ) {
    super(reason);
  }
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * "Create template from this design": POST templates (name, the layout's orientation), one POST
 * templates/{id}/images per layout slot, the PNG as foreground and the JPG as sample through the
 * presign → PUT → confirm uploads. `onStep` hears each step as it starts; a failure says which.
 */
export async function createTemplateFromDesign(
  name: string,
  outputs: DesignOutputs,
  onStep: (step: CreateStep) => void,
): Promise<Template> {
  let templateId: number | null = null;
  let step: CreateStep = 'template';
  try {
    onStep(step);
    const template = await createTemplate({
      name,
      orientation: layoutOf(outputs.layout).orientation,
    });
    templateId = template.id;
    step = 'slots';
    onStep(step);
    // In order: a slot's place in the list is its photo's place in the strip.
    for (const slot of layoutSlots(outputs.layout)) await createTemplateImage(template.id, slot);
    const names = outputFileNames(outputs.layout);
    step = 'foreground';
    onStep(step);
    await uploadTemplateImage(template.id, 'foreground', outputs.png, { filename: names.png });
    step = 'sample';
    onStep(step);
    return await uploadTemplateImage(template.id, 'sample', outputs.jpg, { filename: names.jpg });
  } catch (error) {
    throw new CreateFromDesignError(step, templateId, reasonOf(error));
  }
}

/**
 * The Studio's "Create template from this design" (createTemplateFromDesign); `onStep` hears each
 * step as it starts, and a failure is a CreateFromDesignError.
 */
export function useCreateTemplateFromDesign() {
  return useMutation<
    Template,
    CreateFromDesignError,
    { name: string; outputs: DesignOutputs; onStep: (step: CreateStep) => void }
  >({
    mutationFn: ({ name, outputs, onStep }) => createTemplateFromDesign(name, outputs, onStep),
  });
}
