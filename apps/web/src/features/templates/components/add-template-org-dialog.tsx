import { useId, useState } from 'react';
import { Field, FormDialog } from '@/components/console/form-dialog';
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
  const [error, setError] = useState<string | null>(null);
  const add = useAddTemplateOrg(templateId);
  const id = useId();

  const submit = () => {
    const outcome = associateOrgId(orgId);
    if (outcome.kind === 'invalid') {
      setError(outcome.message);
      return;
    }
    setError(null);
    add.mutate(outcome.orgId, {
      onSuccess: () => onAdded(outcome.orgId),
      onError: (failure) => setError(failure.message || TEMPLATE_TEXT.associateFailed),
    });
  };

  return (
    <FormDialog
      open
      title="Associate Template with an Organization"
      submitLabel="Associate"
      busyLabel="Associating..."
      busy={add.isPending}
      error={error}
      submitDisabled={orgId.trim() === ''}
      onSubmit={submit}
      onCancel={onClose}
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
            setError(null);
          }}
        />
      </Field>
    </FormDialog>
  );
}
