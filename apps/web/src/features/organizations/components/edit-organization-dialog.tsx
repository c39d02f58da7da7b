import type { Organization } from '@flashbooth/contracts';
import { ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { useState } from 'react';
import { FormDialog } from '@/components/console/form-dialog';
import { useFormSubmit } from '@/components/console/use-form-submit';
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
  const submit = useFormSubmit(
    useUpdateOrganization(organization.id),
    () => organizationPatch(organization, values),
    ORGANIZATION_MESSAGES.updateFailed,
    onSaved,
  );

  return (
    <FormDialog
      open
      title="Edit Organization"
      submitLabel="Save Changes"
      busyLabel="Saving..."
      onCancel={onClose}
      {...submit}
    >
      <OrganizationFormFields
        values={values}
        onChange={(next) => {
          setValues(next);
          submit.clear();
        }}
        order={ORGANIZATION_FIELDS}
      />
    </FormDialog>
  );
}
