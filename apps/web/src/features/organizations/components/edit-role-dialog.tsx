import type { OrganizationUser } from '@flashbooth/contracts';
import { ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { useId, useState } from 'react';
import { FormDialog } from '@/components/console/form-dialog';
import { useFormSubmit } from '@/components/console/use-form-submit';
import { useUpdateOrganizationUser } from '../api/update-organization-user';
import { roleChange } from '../organizations-model';
import { RoleField } from './role-field';

interface EditRoleDialogProps {
  orgId: number;
  user: OrganizationUser;
  selfId: number | null;
  onClose: () => void;
  onSaved: () => void;
}

/** Edit User Role: Role (Member or Admin), Save. Nobody changes their own role. */
export function EditRoleDialog({ orgId, user, selfId, onClose, onSaved }: EditRoleDialogProps) {
  const id = useId();
  const [role, setRole] = useState<string>(user.role);
  const submit = useFormSubmit(
    useUpdateOrganizationUser(orgId),
    () => {
      const outcome = roleChange(role, user, selfId);
      if (outcome.kind !== 'ok') return outcome;
      if (outcome.body.role === user.role) {
        return { kind: 'unchanged', message: ORGANIZATION_MESSAGES.noChanges };
      }
      return { kind: 'ok', body: { userId: user.id, patch: outcome.body } };
    },
    ORGANIZATION_MESSAGES.updateRoleFailed,
    onSaved,
  );

  return (
    <FormDialog
      open
      title="Edit User Role"
      submitLabel="Save"
      busyLabel="Saving..."
      onCancel={onClose}
      {...submit}
    >
      <p className="dialog-lead">{user.name}</p>
      <RoleField
        id={`${id}-role`}
        value={role}
        onChange={(value) => {
          setRole(value);
          submit.clear();
        }}
      />
    </FormDialog>
  );
}
