import type { Organization } from '@flashbooth/contracts';
import { ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { useState } from 'react';
import { FormDialog } from '@/components/console/form-dialog';
import { useCreateOrganization } from '../api/create-organization';
import { createOrganizationBody, EMPTY_ORGANIZATION_FORM } from '../organizations-model';
import { OrganizationFormFields } from './organization-form-fields';

interface CreateOrganizationDialogProps {
  open: boolean;
  onClose: () => void;
  onCreated: (organization: Organization) => void;
}

const CREATE_ORDER = ['name', 'email', 'phone', 'address'] as const;

/** Create Organization: Name, Email, Phone, Address; Create shows "Creating..." while busy. */
export function CreateOrganizationDialog({
  open,
  onClose,
  onCreated,
}: CreateOrganizationDialogProps) {
  const [values, setValues] = useState(EMPTY_ORGANIZATION_FORM);
  const [error, setError] = useState<string | null>(null);
  const create = useCreateOrganization();

  const close = () => {
    setValues(EMPTY_ORGANIZATION_FORM);
    setError(null);
    onClose();
  };

  const submit = () => {
    const outcome = createOrganizationBody(values);
    if (outcome.kind === 'invalid') {
      setError(outcome.message);
      return;
    }
    setError(null);
    create.mutate(outcome.body, {
      onSuccess: (organization) => {
        setValues(EMPTY_ORGANIZATION_FORM);
        onCreated(organization);
      },
      onError: (failure) => setError(failure.message || ORGANIZATION_MESSAGES.createFailed),
    });
  };

  return (
    <FormDialog
      open={open}
      title="Create Organization"
      submitLabel="Create"
      busyLabel={ORGANIZATION_MESSAGES.creating}
      busy={create.isPending}
      error={error}
      onSubmit={submit}
      onCancel={close}
    >
      <OrganizationFormFields values={values} onChange={setValues} order={CREATE_ORDER} />
    </FormDialog>
  );
}
