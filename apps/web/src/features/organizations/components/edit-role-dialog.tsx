import type { OrganizationUser } from '@flashbooth/contracts';
import { ORGANIZATION_MESSAGES, ORGANIZATION_ROLES } from '@flashbooth/contracts/rules';
import { useId, useState } from 'react';
import { Field, FormDialog } from '@/components/console/form-dialog';
import { useFormSubmit } from '@/components/console/use-form-submit';
import { useUpdateOrganizationUser } from '../api/update-organization-user';
import { roleChange, roleLabel } from '../organizations-model';

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
      <Field id={`${id}-role`} label="Role">
        <select
          id={`${id}-role`}
          className="select"
          value={role}
          onChange={(event) => {
            setRole(event.target.value);
            submit.clear();
          }}
        >
          {ORGANIZATION_ROLES.map((value) => (
            <option key={value} value={value}>
              {roleLabel(value)}
            </option>
          ))}
        </select>
      </Field>
    </FormDialog>
  );
}
