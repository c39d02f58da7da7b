import { useId, useState } from 'react';
import { Field, FormDialog } from '@/components/console/form-dialog';
import { useFormSubmit } from '@/components/console/use-form-submit';
import { useAddTemplateOrg } from '../api/add-template-org';
import { associateOrgId, TEMPLATE_TEXT } from '../templates-model';

interface AddTemplateOrgDialogProps {
  templateId: number;
  onClose: () => void;
  onAdded: (orgId: string) => void;
}

/** "Associate Template with an Organization": the organization's ID (Associate needs one). */
export function AddTemplateOrgDialog({ templateId, onClose, onAdded }: AddTemplateOrgDialogProps) {
  const [orgId, setOrgId] = useState('');
  const submit = useFormSubmit(
    useAddTemplateOrg(templateId),
    () => {
      const outcome = associateOrgId(orgId);
      return outcome.kind === 'ok' ? { kind: 'ok', body: outcome.orgId } : outcome;
    },
    TEMPLATE_TEXT.associateFailed,
    (_, added) => onAdded(added),
  );
  const id = useId();

  return (
    <FormDialog
      open
      title="Associate Template with an Organization"
      submitLabel="Associate"
      busyLabel="Associating..."
      submitDisabled={orgId.trim() === ''}
      onCancel={onClose}
      {...submit}
    >
      <Field id={id} label="Organization ID">
        <input
          id={id}
          className="input"
          type="text"
          inputMode="numeric"
          autoComplete="off"
          maxLength={12}
          value={orgId}
          onChange={(event) => {
            setOrgId(event.target.value);
            submit.clear();
          }}
        />
      </Field>
    </FormDialog>
  );
}
