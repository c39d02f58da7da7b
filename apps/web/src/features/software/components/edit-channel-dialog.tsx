import type { SoftwareChannel } from '@flashbooth/contracts';
import { SOFTWARE_MESSAGES } from '@flashbooth/contracts/rules';
import { useId, useState } from 'react';
import { FormDialog } from '@/components/console/form-dialog';
import { useFormSubmit } from '@/components/console/use-form-submit';
import { useUpdateChannel } from '../api/update-channel';
import { channelForm, channelPatch } from '../software-model';
import { ChannelFields } from './software-fields';

interface EditChannelDialogProps {
  channel: SoftwareChannel;
  onClose: () => void;
  onSaved: () => void;
}

/** Edit Channel: name and description; only what changed is sent. */
export function EditChannelDialog({ channel, onClose, onSaved }: EditChannelDialogProps) {
  const id = useId();
  const [values, setValues] = useState(() => channelForm(channel));
  const submit = useFormSubmit(
    useUpdateChannel(channel.id, 'edit'),
    () => channelPatch(channel, values),
    SOFTWARE_MESSAGES.updateChannelFailed,
    onSaved,
  );

  return (
    <FormDialog
      open
      title="Edit Channel"
      submitLabel="Save Changes"
      busyLabel="Saving..."
      submitDisabled={!values.name.trim()}
      onCancel={onClose}
      {...submit}
    >
      <ChannelFields id={id} values={values} onChange={setValues} />
    </FormDialog>
  );
}
