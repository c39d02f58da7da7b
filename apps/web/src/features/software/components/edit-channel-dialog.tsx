import type { SoftwareChannel } from '@flashbooth/contracts';
import { SOFTWARE_MESSAGES } from '@flashbooth/contracts/rules';
import { useId, useState } from 'react';
import { FormDialog } from '@/components/console/form-dialog';
import { useUpdateChannel } from '../api/update-channel';
import { channelForm, channelPatch, failureText } from '../software-model';
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
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const update = useUpdateChannel(channel.id, 'edit');

  const submit = () => {
    const outcome = channelPatch(channel, values);
    setError(null);
    setNotice(null);
    if (outcome.kind === 'unchanged') {
      setNotice(outcome.message);
      return;
    }
    if (outcome.kind === 'invalid') {
      setError(outcome.message);
      return;
    }
    update.mutate(outcome.body, {
      onSuccess: onSaved,
      onError: (failure) => setError(failureText(failure, SOFTWARE_MESSAGES.updateChannelFailed)),
    });
  };

  return (
    <FormDialog
      open
      title="Edit Channel"
      submitLabel="Save Changes"
      busyLabel="Saving..."
      busy={update.isPending}
      error={error}
      notice={notice}
      submitDisabled={!values.name.trim()}
      onSubmit={submit}
      onCancel={onClose}
    >
      <ChannelFields
        id={id}
        values={values}
        onChange={(fields) => setValues({ ...values, ...fields })}
      />
    </FormDialog>
  );
}
