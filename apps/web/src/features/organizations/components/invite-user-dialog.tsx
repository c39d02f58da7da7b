import { ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { useId, useState } from 'react';
import { Field, FormDialog } from '@/components/console/form-dialog';
import { useFormSubmit } from '@/components/console/use-form-submit';
import { useCreateInvitation } from '../api/create-invitation';
import { INITIAL_INVITE, inviteBody } from '../organizations-model';
import { RoleField } from './role-field';

interface InviteUserDialogProps {
  orgId: number;
  onClose: () => void;
  onInvited: (phone: string) => void;
}

/**
 * Invite User: Phone Number (starts with "+91-"), Role (Member or Admin), Send Invite. The phone
 * is sent with only digits and plus; the server's answer (already a member, already invited)
 * stays in the dialog. Mounted while open, so it starts afresh.
 */
export function InviteUserDialog({ orgId, onClose, onInvited }: InviteUserDialogProps) {
  const id = useId();
  const [phone, setPhone] = useState(INITIAL_INVITE.phone);
  const [role, setRole] = useState<string>(INITIAL_INVITE.role);
  const submit = useFormSubmit(
    useCreateInvitation(orgId),
    () => inviteBody(phone, role),
    ORGANIZATION_MESSAGES.inviteFailed,
    (_, body) => onInvited(body.invitee_phone),
  );

  return (
    <FormDialog
      open
      title="Invite User"
      submitLabel="Send Invite"
      busyLabel="Sending..."
      onCancel={onClose}
      {...submit}
    >
      <Field id={`${id}-phone`} label="Phone Number">
        <input
          id={`${id}-phone`}
          className="input"
          type="tel"
          inputMode="tel"
          autoComplete="off"
          maxLength={24}
          value={phone}
          onChange={(event) => {
            setPhone(event.target.value);
            submit.clear();
          }}
        />
      </Field>
      <RoleField id={`${id}-role`} value={role} onChange={setRole} />
      <p className="field-hint">{ORGANIZATION_MESSAGES.inviteExpiryHint}</p>
    </FormDialog>
  );
}
