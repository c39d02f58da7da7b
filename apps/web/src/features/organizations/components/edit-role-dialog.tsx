import type { OrganizationUser } from '@flashbooth/contracts';
import { ORGANIZATION_MESSAGES, ORGANIZATION_ROLES } from '@flashbooth/contracts/rules';
import { useId, useState } from 'react';
import { Field, FormDialog } from '@/components/console/form-dialog';
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
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const update = useUpdateOrganizationUser(orgId);

  const submit = () => {
    const outcome = roleChange(role, user, selfId);
    if (outcome.kind === 'invalid') {
      setError(outcome.message);
      return;
    }
    if (outcome.body.role === user.role) {
      setNotice(ORGANIZATION_MESSAGES.noChanges);
      return;
    }
    update.mutate(
      { userId: user.id, patch: outcome.body },
      {
        onSuccess: onSaved,
        onError: (failure) => setError(failure.message || ORGANIZATION_MESSAGES.updateRoleFailed),
      },
    );
  };

  return (
    <FormDialog
      open
      title="Edit User Role"
      submitLabel="Save"
      busyLabel="Saving..."
      busy={update.isPending}
      error={error}
      notice={notice}
      onSubmit={submit}
      onCancel={onClose}
    >
      <p className="dialog-lead">{user.name}</p>
      <Field id={`${id}-role`} label="Role">
        <select
          id={`${id}-role`}
          className="select"
          value={role}
          onChange={(event) => {
            setRole(event.target.value);
            setError(null);
            setNotice(null);
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
