import { ORGANIZATION_ROLES } from '@flashbooth/contracts/rules';
import { Field } from '@/components/console/form-dialog';
import { roleLabel } from '../organizations-model';

/** A dialog's Role select: Member or Admin. */
export function RoleField({
  id,
  value,
  onChange,
}: {
  id: string;
  value: string;
  onChange: (role: string) => void;
}) {
  return (
    <Field id={id} label="Role">
      <select
        id={id}
        className="select"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        {ORGANIZATION_ROLES.map((role) => (
          <option key={role} value={role}>
            {roleLabel(role)}
          </option>
        ))}
      </select>
    </Field>
  );
}
