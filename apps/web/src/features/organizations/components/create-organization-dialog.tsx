import type { Organization } from '@flashbooth/contracts';
import { ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { useState } from 'react';
import { FormDialog } from '@/components/console/form-dialog';
import { useFormSubmit } from '@/components/console/use-form-submit';
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
  const submit = useFormSubmit(
    useCreateOrganization(),
    () => createOrganizationBody(values),
    ORGANIZATION_MESSAGES.createFailed,
    (organization) => {
      setValues(EMPTY_ORGANIZATION_FORM);
      onCreated(organization);
    },
  );

  const close = () => {
    setValues(EMPTY_ORGANIZATION_FORM);
    submit.clear();
    onClose();
  };

  return (
    <FormDialog
      open={open}
      title="Create Organization"
      submitLabel="Create"
      busyLabel={ORGANIZATION_MESSAGES.creating}
      onCancel={close}
      {...submit}
    >
      <OrganizationFormFields values={values} onChange={setValues} order={CREATE_ORDER} />
    </FormDialog>
  );
}
