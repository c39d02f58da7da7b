import type { Template, TemplateOrientation } from '@flashbooth/contracts';
import { useId } from 'react';
import { Field, FormDialog } from '@/components/console/form-dialog';
import { useCreateForm } from '@/components/console/use-form-submit';
import { useCreateTemplate } from '../api/create-template';
import {
  canCreateTemplate,
  createTemplateBody,
  EMPTY_TEMPLATE_FORM,
  TEMPLATE_TEXT,
} from '../templates-model';

interface CreateTemplateDialogProps {
  open: boolean;
  onClose: () => void;
  onCreated: (template: Template) => void;
}

const CREATE_TEMPLATE = {
  empty: EMPTY_TEMPLATE_FORM,
  body: createTemplateBody,
  failed: TEMPLATE_TEXT.createFailed,
};

/** Create Template: name and orientation (portrait by default); Create disabled while unnamed. */
export function CreateTemplateDialog({ open, onClose, onCreated }: CreateTemplateDialogProps) {
  const { values, setValues, submit, close } = useCreateForm(CREATE_TEMPLATE, useCreateTemplate(), {
    onCreated,
    onClose,
  });
  const nameId = useId();
  const orientationId = useId();

  return (
    <FormDialog
      open={open}
      title="Create Template"
      submitLabel="Create"
      busyLabel="Creating..."
      submitDisabled={!canCreateTemplate(values)}
      onCancel={close}
      {...submit}
    >
      <Field id={nameId} label="Name">
        <input
          id={nameId}
          className="input"
          type="text"
          value={values.name}
          maxLength={100}
          autoComplete="off"
          required
          onChange={(event) => setValues({ ...values, name: event.target.value })}
        />
      </Field>
      <Field id={orientationId} label="Orientation">
        <select
          id={orientationId}
          className="select"
          value={values.orientation}
          onChange={(event) =>
            setValues({ ...values, orientation: event.target.value as TemplateOrientation })
          }
        >
          <option value="portrait">Portrait</option>
          <option value="landscape">Landscape</option>
        </select>
      </Field>
    </FormDialog>
  );
}
