import type { Organization } from '@flashbooth/contracts';
import { ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { FormDialog } from '@/components/console/form-dialog';
import { useCreateForm } from '@/components/console/use-form-submit';
import { useCreateOrganization } from '../api/create-organization';
import { createOrganizationBody, EMPTY_ORGANIZATION_FORM } from '../organizations-model';
import { OrganizationFormFields } from './organization-form-fields';

interface CreateOrganizationDialogProps {
  open: boolean;
  onClose: () => void;
  onCreated: (organization: Organization) => void;
}

const CREATE_ORDER = ['name', 'email', 'phone', 'address'] as const;

const CREATE_ORGANIZATION = {
  empty: EMPTY_ORGANIZATION_FORM,
  body: createOrganizationBody,
  failed: ORGANIZATION_MESSAGES.createFailed,
};

/** Create Organization: Name, Email, Phone, Address; Create shows "Creating..." while busy. */
export function CreateOrganizationDialog({
  open,
  onClose,
  onCreated,
}: CreateOrganizationDialogProps) {
  const { values, setValues, submit, close } = useCreateForm(
    CREATE_ORGANIZATION,
    useCreateOrganization(),
    { onCreated, onClose },
  );

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
