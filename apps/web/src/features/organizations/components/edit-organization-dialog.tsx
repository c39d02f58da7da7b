import type { Organization } from '@flashbooth/contracts';
import { ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { useState } from 'react';
import { FormDialog } from '@/components/console/form-dialog';
import { useUpdateOrganization } from '../api/update-organization';
import {
  ORGANIZATION_FIELDS,
  formFromOrganization,
  organizationPatch,
} from '../organizations-model';
import { OrganizationFormFields } from './organization-form-fields';

interface EditOrganizationDialogProps {
  organization: Organization;
  onClose: () => void;
  onSaved: () => void;
}

/**
 * Edit Organization: Name, Phone, Email, Address; Save Changes sends only what changed, and
 * nothing changed says "No changes to save.". Mounted while open, so it starts from the record.
 */
export function EditOrganizationDialog({
  organization,
  onClose,
  onSaved,
}: EditOrganizationDialogProps) {
  const [values, setValues] = useState(() => formFromOrganization(organization));
  const [message, setMessage] = useState<{ kind: 'error' | 'info'; text: string } | null>(null);
  const update = useUpdateOrganization(organization.id);

  const submit = () => {
    const outcome = organizationPatch(organization, values);
    if (outcome.kind !== 'ok') {
      setMessage({ kind: outcome.kind === 'unchanged' ? 'info' : 'error', text: outcome.message });
      return;
    }
    setMessage(null);
    update.mutate(outcome.body, {
      onSuccess: onSaved,
      onError: (failure) =>
        setMessage({ kind: 'error', text: failure.message || ORGANIZATION_MESSAGES.updateFailed }),
    });
  };

  return (
    <FormDialog
      open
      title="Edit Organization"
      submitLabel="Save Changes"
      busyLabel="Saving..."
      busy={update.isPending}
      error={message?.kind === 'error' ? message.text : null}
      notice={message?.kind === 'info' ? message.text : null}
      onSubmit={submit}
      onCancel={onClose}
    >
      <OrganizationFormFields
        values={values}
        onChange={(next) => {
          setValues(next);
          setMessage(null);
        }}
        order={ORGANIZATION_FIELDS}
      />
    </FormDialog>
  );
}
