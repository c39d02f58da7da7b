import type { SoftwareChannel } from '@flashbooth/contracts';
import { SOFTWARE_MESSAGES } from '@flashbooth/contracts/rules';
import { useId, useState } from 'react';
import { FormDialog } from '@/components/console/form-dialog';
import { useCreateChannel } from '../api/create-channel';
import {
  createChannelBody,
  EMPTY_CHANNEL_FORM,
  failureText,
  SOFTWARE_SCREEN_TEXT,
} from '../software-model';
import { ReleaseSelect } from './release-select';
import { ChannelFields } from './software-fields';

interface CreateChannelDialogProps {
  onClose: () => void;
  onCreated: (channel: SoftwareChannel) => void;
}

/** +Create Channel: Name*, Description and an optional release link (none by default). */
export function CreateChannelDialog({ onClose, onCreated }: CreateChannelDialogProps) {
  const id = useId();
  const [values, setValues] = useState(EMPTY_CHANNEL_FORM);
  const [error, setError] = useState<string | null>(null);
  const create = useCreateChannel();

  const submit = () => {
    const outcome = createChannelBody(values);
    if (outcome.kind !== 'ok') {
      setError(outcome.message);
      return;
    }
    setError(null);
    create.mutate(outcome.body, {
      onSuccess: onCreated,
      onError: (failure) => setError(failureText(failure, SOFTWARE_MESSAGES.createChannelFailed)),
    });
  };

  return (
    <FormDialog
      open
      title="Create Software Channel"
      submitLabel="Create Channel"
      busyLabel="Creating..."
      busy={create.isPending}
      error={error}
      submitDisabled={!values.name.trim()}
      onSubmit={submit}
      onCancel={onClose}
    >
      <ChannelFields
        id={id}
        values={values}
        onChange={(fields) => setValues({ ...values, ...fields })}
      />
      <ReleaseSelect
        id={`${id}-release`}
        label="Link Release (optional)"
        value={values.releaseId}
        noneLabel={SOFTWARE_SCREEN_TEXT.none}
        onChange={(releaseId) => setValues({ ...values, releaseId })}
      />
    </FormDialog>
  );
}
